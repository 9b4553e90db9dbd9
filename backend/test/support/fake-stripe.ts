import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { parse } from 'qs';
import fixtures from './stripe-fixtures.json';

/*
 * A local, stateful stand-in for Stripe's API, for exactly the calls the Stripe adapter makes:
 * customers, Checkout Sessions (payment and setup mode), PaymentIntents with their latest charge
 * (receipt_url), refunds, payment methods. Requests are Stripe's form encoding
 * (`line_items[0][price_data][unit_amount]=...`), answers are Stripe's objects: each starts from the
 * example object of stripe/openapi's fixtures (stripe-fixtures.json) with the fields we track set.
 * Errors are Stripe's `{ error: { type, code, message, param } }`; an Idempotency-Key replays the first
 * answer. What a payer does on Stripe's pages is played by `completeCheckout` and `expireCheckout`.
 */

type StripeObject = Record<string, unknown> & { id: string };
type Params = Record<string, unknown>;

const clone = <T>(value: T): T => structuredClone(value);
const now = () => Math.floor(Date.now() / 1000);
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; code?: string; message: string; param?: string },
  ) {
    super(body.message);
  }
}
const missing = (kind: string, value: string, param = 'id') =>
  new StripeApiError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${value}'`, param });
const required = (param: string) =>
  new StripeApiError(400, { type: 'invalid_request_error', code: 'parameter_missing', message: `Missing required param: ${param}.`, param });

export interface FakeStripe {
  /** The address to give the adapter (STRIPE_API_BASE). */
  url: string;
  secretKey: string;
  requests: { method: string; path: string; idempotencyKey?: string }[];
  customers: Map<string, StripeObject>;
  sessions: Map<string, StripeObject>;
  paymentIntents: Map<string, StripeObject>;
  charges: Map<string, StripeObject>;
  refunds: Map<string, StripeObject>;
  paymentMethods: Map<string, StripeObject>;
  /** The payer pays (payment mode) or saves a card (setup mode) on Stripe's hosted page. */
  completeCheckout(sessionId: string): StripeObject;
  /** The session runs out (as when expires_at passes). */
  expireCheckout(sessionId: string): StripeObject;
  close(): Promise<void>;
}

export async function startFakeStripe(secretKey = 'sk_test_fake'): Promise<FakeStripe> {
  const customers = new Map<string, StripeObject>();
  const sessions = new Map<string, StripeObject>();
  const paymentIntents = new Map<string, StripeObject>();
  const charges = new Map<string, StripeObject>();
  const refunds = new Map<string, StripeObject>();
  const paymentMethods = new Map<string, StripeObject>();
  const setupIntents = new Map<string, StripeObject>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const requests: FakeStripe['requests'] = [];
  let base = '';

  const get = (map: Map<string, StripeObject>, kind: string, key: string) => {
    const found = map.get(key);
    if (!found) throw missing(kind, key);
    return found;
  };

  const createCustomer = (p: Params): StripeObject => {
    const customer: StripeObject = {
      ...clone(fixtures.customer),
      id: id('cus'),
      created: now(),
      email: (p.email as string) ?? null,
      name: (p.name as string) ?? null,
      metadata: (p.metadata as object) ?? {},
      discount: null,
    };
    customers.set(customer.id, customer);
    return customer;
  };

  const createSession = (p: Params): StripeObject => {
    const mode = p.mode as string;
    if (!mode) throw required('mode');
    if (!p.success_url) throw required('success_url');
    if (!['payment', 'setup'].includes(mode)) {
      throw new StripeApiError(400, { type: 'invalid_request_error', code: 'parameter_invalid_empty', message: `Invalid mode: ${mode}`, param: 'mode' });
    }
    if (p.customer && !customers.has(p.customer as string)) throw missing('customer', p.customer as string, 'customer');
    const lines = (p.line_items as Params[] | undefined) ?? [];
    if (mode === 'payment' && !lines.length) throw required('line_items');
    if (mode === 'setup' && !p.currency) throw required('currency');
    let total = 0;
    let currency = (p.currency as string) ?? null;
    for (const [index, line] of lines.entries()) {
      const price = line.price_data as Params | undefined;
      const amount = Number(price?.unit_amount);
      if (!price || !Number.isInteger(amount) || amount < 0) throw required(`line_items[${index}][price_data][unit_amount]`);
      currency = price.currency as string;
      total += amount * Number(line.quantity ?? 1);
    }
    const expiresAt = p.expires_at ? Number(p.expires_at) : now() + 24 * 3600;
    if (expiresAt < now() + 30 * 60 - 5 || expiresAt > now() + 24 * 3600 + 5) {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        message: 'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
        param: 'expires_at',
      });
    }
    const sessionId = `cs_test_${randomBytes(24).toString('hex')}`;
    const session: StripeObject = {
      ...clone(fixtures['checkout.session']),
      id: sessionId,
      created: now(),
      mode,
      status: 'open',
      payment_status: mode === 'setup' ? 'no_payment_required' : 'unpaid',
      amount_subtotal: mode === 'payment' ? total : null,
      amount_total: mode === 'payment' ? total : null,
      currency,
      customer: (p.customer as string) ?? null,
      customer_email: (p.customer_email as string) ?? null,
      client_reference_id: (p.client_reference_id as string) ?? null,
      metadata: (p.metadata as object) ?? {},
      success_url: p.success_url,
      cancel_url: (p.cancel_url as string) ?? null,
      expires_at: expiresAt,
      payment_intent: null,
      setup_intent: null,
      url: `${base}/c/pay/${sessionId}`,
      // What the adapter asked the future PaymentIntent to carry.
      _payment_intent_metadata: ((p.payment_intent_data as Params | undefined)?.metadata as object) ?? {},
    };
    sessions.set(sessionId, session);
    return session;
  };

  const publicSession = (session: StripeObject) => {
    const { _payment_intent_metadata: _, ...rest } = session;
    return rest;
  };

  const paymentIntentOf = (intentId: string, expand: string[]) => {
    const intent = clone(get(paymentIntents, 'payment_intent', intentId));
    if (expand.includes('latest_charge') && typeof intent.latest_charge === 'string') intent.latest_charge = clone(charges.get(intent.latest_charge));
    return intent;
  };

  const createRefund = (p: Params): StripeObject => {
    let charge: StripeObject | undefined;
    if (p.payment_intent) {
      const intent = get(paymentIntents, 'payment_intent', p.payment_intent as string);
      charge = charges.get(intent.latest_charge as string);
      if (!charge) {
        throw new StripeApiError(400, {
          type: 'invalid_request_error',
          code: 'payment_intent_unexpected_state',
          message: `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
          param: 'payment_intent',
        });
      }
    } else if (p.charge) {
      charge = get(charges, 'charge', p.charge as string);
    } else {
      throw new StripeApiError(400, { type: 'invalid_request_error', message: 'One of the following params should be provided for this request: payment_intent or charge.' });
    }
    const remaining = (charge.amount as number) - (charge.amount_refunded as number);
    if (remaining <= 0) {
      throw new StripeApiError(400, { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge ${charge.id} has already been refunded.` });
    }
    const amount = p.amount === undefined ? remaining : Number(p.amount);
    if (!Number.isInteger(amount) || amount < 1) {
      throw new StripeApiError(400, { type: 'invalid_request_error', code: 'parameter_invalid_integer', message: 'Invalid positive integer', param: 'amount' });
    }
    if (amount > remaining) {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        message: `Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(remaining)})`,
        param: 'amount',
      });
    }
    const refund: StripeObject = {
      ...clone(fixtures.refund),
      id: id('re'),
      created: now(),
      amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      reason: (p.reason as string) ?? null,
      metadata: (p.metadata as object) ?? {},
      status: 'succeeded',
    };
    refunds.set(refund.id, refund);
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    return refund;
  };

  const listPaymentMethods = (q: Params) => {
    if (q.customer && !customers.has(q.customer as string)) throw missing('customer', q.customer as string, 'customer');
    const data = [...paymentMethods.values()].filter((m) => (!q.customer || m.customer === q.customer) && (!q.type || m.type === q.type));
    return { object: 'list', data: clone(data), has_more: false, url: '/v1/payment_methods' };
  };

  const route = (method: string, path: string, params: Params): unknown => {
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/customers') return createCustomer(params);
    if (method === 'POST' && path === '/v1/checkout/sessions') return publicSession(createSession(params));
    if (method === 'GET' && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) return publicSession(get(sessions, 'checkout.session', m[1]));
    if (method === 'GET' && (m = path.match(/^\/v1\/payment_intents\/([^/]+)$/))) return paymentIntentOf(m[1], (params.expand as string[]) ?? []);
    if (method === 'POST' && path === '/v1/refunds') return createRefund(params);
    if (method === 'GET' && path === '/v1/payment_methods') return listPaymentMethods(params);
    throw new StripeApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stripe');
      const method = req.method ?? 'GET';
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      requests.push({ method, path: url.pathname, idempotencyKey });
      const send = (status: number, body: unknown, replayed = false) => {
        const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Request-Id': id('req') };
        if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
        if (replayed) headers['Idempotent-Replayed'] = 'true';
        res.writeHead(status, headers).end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: ' + String(req.headers.authorization ?? '').slice(7, 15) + '****' } });
      }
      const cacheKey = idempotencyKey && method === 'POST' ? `${url.pathname} ${idempotencyKey}` : undefined;
      const replay = cacheKey ? idempotent.get(cacheKey) : undefined;
      if (replay) return send(replay.status, replay.body, true);
      const params = method === 'GET' ? parse(url.search.slice(1)) : parse(Buffer.concat(chunks).toString('utf8'));
      let status = 200;
      let body: unknown;
      try {
        body = route(method, url.pathname, params as Params);
      } catch (error) {
        if (!(error instanceof StripeApiError)) throw error;
        status = error.status;
        body = { error: { ...error.body, doc_url: error.body.code ? `https://stripe.com/docs/error-codes/${error.body.code.replace(/_/g, '-')}` : undefined } };
      }
      // Stripe keeps the answer of a key (success or 400) and replays it for 24 hours.
      if (cacheKey && status < 500) idempotent.set(cacheKey, { status, body });
      send(status, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    secretKey,
    requests,
    customers,
    sessions,
    paymentIntents,
    charges,
    refunds,
    paymentMethods,
    completeCheckout(sessionId) {
      const session = get(sessions, 'checkout.session', sessionId);
      if (session.status !== 'open') throw new Error(`session ${sessionId} is ${String(session.status)}`);
      if (session.mode === 'payment') {
        const intentId = id('pi');
        const chargeId = id('ch');
        const amount = session.amount_total as number;
        const method: StripeObject = { ...clone(fixtures.payment_method), id: id('pm'), created: now(), customer: session.customer ?? null, metadata: {} };
        const charge: StripeObject = {
          ...clone(fixtures.charge),
          id: chargeId,
          created: now(),
          amount,
          amount_captured: amount,
          amount_refunded: 0,
          refunded: false,
          captured: true,
          paid: true,
          status: 'succeeded',
          currency: session.currency,
          customer: session.customer ?? null,
          payment_intent: intentId,
          payment_method: method.id,
          receipt_email: session.customer_email ?? null,
          receipt_url: `${base}/receipts/payment/${chargeId}`,
          metadata: clone(session._payment_intent_metadata),
        };
        const intent: StripeObject = {
          ...clone(fixtures.payment_intent),
          id: intentId,
          created: now(),
          amount,
          amount_received: amount,
          amount_capturable: 0,
          canceled_at: null,
          currency: session.currency,
          customer: session.customer ?? null,
          latest_charge: chargeId,
          last_payment_error: null,
          next_action: null,
          processing: null,
          payment_method: method.id,
          status: 'succeeded',
          client_secret: `${intentId}_secret_${randomBytes(8).toString('hex')}`,
          metadata: clone(session._payment_intent_metadata),
        };
        charges.set(chargeId, charge);
        paymentIntents.set(intentId, intent);
        Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intentId, url: null });
      } else {
        const method: StripeObject = { ...clone(fixtures.payment_method), id: id('pm'), created: now(), customer: session.customer ?? null, metadata: {} };
        paymentMethods.set(method.id, method);
        const setupIntent: StripeObject = {
          ...clone(fixtures.setup_intent),
          id: id('seti'),
          created: now(),
          customer: session.customer ?? null,
          payment_method: method.id,
          status: 'succeeded',
          last_setup_error: null,
          next_action: null,
        };
        setupIntents.set(setupIntent.id, setupIntent);
        Object.assign(session, { status: 'complete', payment_status: 'no_payment_required', setup_intent: setupIntent.id, url: null });
      }
      return publicSession(session) as StripeObject;
    },
    expireCheckout(sessionId) {
      const session = get(sessions, 'checkout.session', sessionId);
      Object.assign(session, { status: 'expired', url: null });
      return publicSession(session) as StripeObject;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
