/**
 * The guard of the rule "no outside call inside a database transaction" (ARCHITECTURE.md): a call
 * to the payment provider, the e-signature provider, any HTTP service (Stripe, DocuSeal, Eventbrite,
 * Mailchimp, Klaviyo, Zoom, Slack, S3, OAuth token endpoints) or the mail server must not run while a
 * MikroORM transaction is open on the calling async context, where it would hold row locks and a
 * pooled connection for as long as the other side takes, and could not be rolled back anyway.
 *
 * Test mode only (NODE_ENV=test, as every test app runs): `watchOutsideCalls(orm)` (app.factory)
 * turns the check on in the process and watches every outgoing HTTP request (Node's diagnostics
 * channels of http/https and of fetch, so every SDK is covered: Stripe's, DocuSeal's, Mailchimp's,
 * Klaviyo's, AWS's), `guardPort` wraps a port so each of its methods checks first (the demo payment
 * and signing adapters make no HTTP call but stand for a provider that would), and the mail worker
 * checks before each send (`assertOutsideTransaction`). A call made inside a transaction fails with
 * OutsideCallInTransactionError and is recorded; the test app's close fails its suite with every
 * call recorded (`takeOutsideCallViolations`), so one swallowed by a retry or a `.catch` counts too.
 *
 * "Open on the context" is what MikroORM itself would use for a query here: the transaction fork of
 * `em.transactional` (TransactionContext, an AsyncLocalStorage), the request context's fork
 * (RequestContext), or the global EntityManager, whichever holds an uncommitted transaction (a
 * continuation that outlived its committed transaction holds a completed one, which is fine).
 */
import { EntityManager, RequestContext, TransactionContext } from '@mikro-orm/core';
import { subscribe } from 'node:diagnostics_channel';

export class OutsideCallInTransactionError extends Error {
  readonly code = 'outside_call_in_transaction';
  constructor(readonly what: string) {
    super(`${what} was called inside a database transaction: make outside calls before or after it (no outside call inside a transaction)`);
  }
}

/** One outside call made inside a transaction: what, and where from. */
export interface OutsideCallViolation {
  what: string;
  stack: string;
}

const state = {
  enabled: false,
  /** The applications' global EntityManagers (a test process may run several apps). */
  globals: new Set<EntityManager>(),
  violations: [] as OutsideCallViolation[],
  watchingHttp: false,
};

/** The driver's transaction object as MikroORM keeps it (knex's, which says when it completed). */
type DriverTransaction = { isCompleted?: () => boolean } | undefined;

const openOn = (em: EntityManager | undefined): boolean => {
  const trx = em?.getTransactionContext<DriverTransaction>();
  return !!trx && !(typeof trx.isCompleted === 'function' && trx.isCompleted());
};

/** Whether a MikroORM transaction is open on the calling async context. */
export function inOpenTransaction(): boolean {
  if (openOn(TransactionContext.getEntityManager() as EntityManager | undefined)) return true;
  if (openOn(RequestContext.getEntityManager() as EntityManager | undefined)) return true;
  for (const em of state.globals) if (openOn(em)) return true;
  return false;
}

/**
 * Checks (when watching) that no transaction is open here: otherwise records the call and throws
 * OutsideCallInTransactionError. Call it right before an outside call.
 */
export function assertOutsideTransaction(what: string): void {
  const error = violation(what);
  if (error) throw error;
}

function violation(what: string): OutsideCallInTransactionError | null {
  if (!state.enabled || !inOpenTransaction()) return null;
  const error = new OutsideCallInTransactionError(what);
  state.violations.push({ what, stack: error.stack ?? what });
  return error;
}

/**
 * Turns the check on in this process (test mode) for the application of `em` (its global
 * EntityManager counts as a context), and watches outgoing HTTP requests: one started inside a
 * transaction is failed with OutsideCallInTransactionError before it is sent.
 */
export function watchOutsideCalls(em: EntityManager): void {
  state.enabled = true;
  state.globals.add(em);
  if (state.watchingHttp) return;
  state.watchingHttp = true;
  // node:http and node:https (Stripe's, DocuSeal's, Mailchimp's, Klaviyo's and AWS's SDKs).
  subscribe('http.client.request.start', (message) => {
    const { request } = message as { request: { method?: string; host?: string; path?: string; destroy(error: Error): void } };
    const error = violation(`HTTP ${request.method ?? ''} ${request.host ?? ''}${request.path ?? ''}`);
    if (error) request.destroy(error);
  });
  // fetch (undici): the sync clients' ProviderHttp, chat alerts, OAuth token calls.
  subscribe('undici:request:create', (message) => {
    const { request } = message as { request: { method?: string; origin?: string; path?: string; onError?(error: Error): void } };
    const error = violation(`HTTP ${request.method ?? ''} ${request.origin ?? ''}${request.path ?? ''}`);
    if (error) request.onError?.(error);
  });
}

/** Stops counting `em`'s application (it closed). */
export function unwatchOutsideCalls(em: EntityManager): void {
  state.globals.delete(em);
}

/** The calls recorded since the last take, and forgets them. */
export function takeOutsideCallViolations(): OutsideCallViolation[] {
  return state.violations.splice(0);
}

/**
 * The port with each method checking first that no transaction is open (in test mode; the port
 * itself otherwise). Methods run on the adapter itself, so its own calls to its own methods (the demo
 * adapter's ledger transactions) are not checked again. `except` names methods that call nothing
 * outside (a webhook's signature check; the others answer promises, and a refusal is a rejected
 * one). A test's spy on a method (jest.spyOn) is answered as itself, so the test can program it;
 * unprogrammed, it calls the checked method it replaced.
 */
export function guardPort<T extends object>(port: T, name: string, testMode: boolean, except: string[] = []): T {
  if (!testMode) return port;
  const isSpy = (value: unknown) => (value as { _isMockFunction?: boolean })._isMockFunction === true;
  return new Proxy(port, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || typeof property !== 'string' || except.includes(property) || property === 'constructor' || isSpy(value)) return value;
      return (...args: unknown[]) => {
        // A port's methods answer promises: the refusal is a rejected one, as the provider's would be.
        const error = violation(`${name}.${property}`);
        if (error) return Promise.reject(error);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
