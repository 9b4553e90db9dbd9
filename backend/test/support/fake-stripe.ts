import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { createHmac, randomBytes } from 'node:crypto';
import { parse } from 'qs';
import fixtures from './stripe-fixtures.json';

/*
 * A local, stateful stand-in for Stripe's API, for exactly the calls the Stripe adapter makes:
 * customers, Checkout Sessions (payment and setup mode), PaymentIntents with their latest charge
 * (receipt_url), refunds, payment methods. Requests are Stripe's form encoding
 * (`line_items[0][price_data][unit_amount]=...`), answers are Stripe's objects: each starts from the
 * example object of stripe/openapi's fixtures (stripe-fixtures.json) with the fields we track set.
 * Errors are Stripe's `{ error: { type, code, message, param } }`; an Idempotency-Key replays the first
 * answer, and refuses other parameters (`idempotency_error`). What a payer does on Stripe's pages is played by `completeCheckout` and `expireCheckout`.
 *
 * Prices, subscriptions (create, retrieve, cancel now) and their invoices are kept too; `renewSubscription`
 * plays a billing cycle. `answerNextRefund` makes the next refund pending (or requires_action) and
 * `updateRefund` plays its later success, failure or cancellation (refund.updated, refund.failed);
 * `dashboardRefund` plays a refund made in Stripe's dashboard, and `holdNextRefund` holds a refund's
 * answer while its webhooks are delivered. A refund is announced as refund.created and charge.refunded. Every change is also an event (`events`, Stripe's event objects, oldest first),
 * which `signWebhook` signs as Stripe signs a delivery: `t=<seconds>,v1=<HMAC-SHA256(secret, t.payload)>`.
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
  setupIntents: Map<string, StripeObject>;
  prices: Map<string, StripeObject>;
  subscriptions: Map<string, StripeObject>;
  invoices: Map<string, StripeObject>;
  /** Every event the fake emitted, oldest first (what Stripe would deliver to a webhook endpoint). */
  events: StripeObject[];
  /** A billing cycle: the next invoice is paid and the period moves on (invoice.paid, customer.subscription.updated). */
  renewSubscription(subscriptionId: string): StripeObject;
  /** The body and Stripe-Signature header of one delivery of an event, signed at `timestamp` (Unix seconds, now by default). */
  signWebhook(event: StripeObject, secret: string, timestamp?: number): { payload: string; header: string };
  /** The payer pays (payment mode) or saves a card (setup mode) on Stripe's hosted page. */
  completeCheckout(sessionId: string): StripeObject;
  /** The session runs out (as when expires_at passes). */
  expireCheckout(sessionId: string): StripeObject;
  /** The next refund created answers this status instead of succeeded (as a bank that takes days, or asks for action). */
  answerNextRefund(status: 'pending' | 'requires_action'): void;
  /**
   * A refund changes at Stripe: its status (and failure_reason) is set, a failed or canceled refund's
   * amount is no longer refunded on the charge, and the event is answered (refund.failed for a failure,
   * refund.updated otherwise, or `type`, e.g. charge.refund.updated of older API versions).
   */
  updateRefund(refundId: string, status: 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled', options?: { failureReason?: string; type?: string }): StripeObject;
  /**
   * A studio owner refunds the payment in the Stripe dashboard (no metadata: not made through the
   * API): the refund (all that is left by default) and its events, refund.created and charge.refunded
   * (whose charge, as since API 2022-11-15, does not list its refunds).
   */
  dashboardRefund(paymentIntentId: string, options?: { amount?: number; status?: 'pending' | 'succeeded'; reason?: string }): { refund: StripeObject; created: StripeObject; chargeRefunded: StripeObject };
  /**
   * Holds the answer of the next refund created through the API until `release` is called; `created`
   * resolves with the refund once Stripe made it (its events are in `events`). Plays a webhook that
   * arrives while the caller's transaction is still open.
   */
  holdNextRefund(): { created: Promise<StripeObject>; release: () => void };
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
  const prices = new Map<string, StripeObject>();
  const subscriptions = new Map<string, StripeObject>();
  const invoices = new Map<string, StripeObject>();
  const events: StripeObject[] = [];
  let nextRefundStatus: string | null = null;
  let refundHold: { onCreated: (refund: StripeObject) => void; released: Promise<void> } | null = null;
  // Events of one second still come in order: each is created at least a second after the last.
  let lastEventAt = 0;
  const emit = (type: string, object: StripeObject, previous?: Params): StripeObject => {
    lastEventAt = Math.max(now(), lastEventAt + 1);
    const event: StripeObject = {
      ...clone(fixtures.event),
      id: `evt_${randomBytes(12).toString('hex')}`,
      created: lastEventAt,
      type,
      api_version: '2025-09-30.clover',
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: previous ? { object: clone(object), previous_attributes: clone(previous) } : { object: clone(object) },
    };
    events.push(event);
    return event;
  };
  const idempotent = new Map<string, { status: number; body: unknown; params: string }>();
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
      status: nextRefundStatus ?? 'succeeded',
    };
    nextRefundStatus = null;
    refunds.set(refund.id, refund);
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    // As Stripe: the refund, then the charge it refunded (whose refunds are not listed unless expanded).
    emit('refund.created', refund);
    const { refunds: _listed, ...unexpanded } = charge;
    emit('charge.refunded', unexpanded as StripeObject, { amount_refunded: (charge.amount_refunded as number) - amount, refunded: false });
    return refund;
  };

  /** GET /v1/refunds: newest first, of one charge or payment intent when asked. */
  const listRefunds = (q: Params) => {
    if (q.charge && !charges.has(q.charge as string)) throw missing('charge', q.charge as string, 'charge');
    const data = [...refunds.values()]
      .filter((r) => (!q.charge || r.charge === q.charge) && (!q.payment_intent || r.payment_intent === q.payment_intent))
      .reverse();
    return { object: 'list', data: clone(data), has_more: false, url: '/v1/refunds' };
  };

  const listPaymentMethods = (q: Params) => {
    if (q.customer && !customers.has(q.customer as string)) throw missing('customer', q.customer as string, 'customer');
    const data = [...paymentMethods.values()].filter((m) => (!q.customer || m.customer === q.customer) && (!q.type || m.type === q.type));
    return { object: 'list', data: clone(data), has_more: false, url: '/v1/payment_methods' };
  };

  const INTERVALS = ['day', 'week', 'month', 'year'];
  const createPrice = (p: Params): StripeObject => {
    const amount = Number(p.unit_amount);
    if (!Number.isInteger(amount) || amount < 0) throw required('unit_amount');
    if (!p.currency) throw required('currency');
    const recurring = p.recurring as Params | undefined;
    if (recurring && !INTERVALS.includes(recurring.interval as string)) {
      throw new StripeApiError(400, { type: 'invalid_request_error', code: 'parameter_invalid_empty', message: `Invalid recurring[interval]: must be one of ${INTERVALS.join(', ')}`, param: 'recurring[interval]' });
    }
    const productData = p.product_data as Params | undefined;
    if (!p.product && !productData?.name) throw required('product');
    const price: StripeObject = {
      ...clone(fixtures.price),
      id: id('price'),
      created: now(),
      currency: p.currency,
      unit_amount: amount,
      unit_amount_decimal: String(amount),
      nickname: (p.nickname as string) ?? (productData?.name as string) ?? null,
      product: (p.product as string) ?? id('prod'),
      metadata: (p.metadata as object) ?? {},
      type: recurring ? 'recurring' : 'one_time',
      recurring: recurring
        ? { interval: recurring.interval, interval_count: Number(recurring.interval_count ?? 1), meter: null, usage_type: 'licensed', trial_period_days: null }
        : null,
      transform_quantity: null,
    };
    prices.set(price.id, price);
    return price;
  };

  /** The end of a billing period that starts at `start` (Unix seconds), in calendar units as Stripe bills. */
  const periodEnd = (start: number, price: StripeObject): number => {
    const { interval, interval_count: count } = price.recurring as { interval: string; interval_count: number };
    const date = new Date(start * 1000);
    if (interval === 'day') date.setUTCDate(date.getUTCDate() + count);
    else if (interval === 'week') date.setUTCDate(date.getUTCDate() + 7 * count);
    else if (interval === 'month') date.setUTCMonth(date.getUTCMonth() + count);
    else date.setUTCFullYear(date.getUTCFullYear() + count);
    return Math.floor(date.getTime() / 1000);
  };

  /** A paid invoice of the subscription for the period given (the card on file is charged). */
  const payInvoice = (sub: StripeObject, start: number, end: number, reason: string): StripeObject => {
    const item = (sub.items as { data: StripeObject[] }).data[0];
    const price = item.price as StripeObject;
    const amount = price.unit_amount as number;
    const invoiceId = id('in');
    const template = clone(fixtures.invoice);
    const line = { ...template.lines.data[0], id: id('il'), invoice: invoiceId, amount, currency: price.currency, description: `1 × ${String(price.nickname ?? 'plan')}`, period: { start, end } };
    const invoice: StripeObject = {
      ...template,
      id: invoiceId,
      created: now(),
      customer: sub.customer,
      currency: price.currency,
      billing_reason: reason,
      status: 'paid',
      amount_due: amount,
      amount_paid: amount,
      amount_remaining: 0,
      subtotal: amount,
      subtotal_excluding_tax: amount,
      total: amount,
      total_excluding_tax: amount,
      attempted: true,
      attempt_count: 1,
      // API 2025-03 and later: the subscription is named under parent, not on the invoice.
      subscription: null,
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: clone(sub.metadata) } },
      lines: { ...template.lines, data: [line], total_count: 1, url: `/v1/invoices/${invoiceId}/lines` },
      period_start: start,
      period_end: end,
      number: `FAKE-${String(invoices.size + 1).padStart(4, '0')}`,
      hosted_invoice_url: `${base}/invoice/${invoiceId}`,
      invoice_pdf: `${base}/invoice/${invoiceId}/pdf`,
      status_transitions: { finalized_at: now(), marked_uncollectible_at: null, paid_at: now(), voided_at: null },
      last_finalization_error: null,
      from_invoice: null,
      metadata: {},
    };
    invoices.set(invoiceId, invoice);
    sub.latest_invoice = invoiceId;
    emit('invoice.paid', invoice);
    return invoice;
  };

  const createSubscription = (p: Params): StripeObject => {
    if (!p.customer) throw required('customer');
    if (!customers.has(p.customer as string)) throw missing('customer', p.customer as string, 'customer');
    const items = (p.items as Params[] | undefined) ?? [];
    if (!items.length) throw required('items');
    const price = get(prices, 'price', items[0].price as string);
    if (!price.recurring) {
      throw new StripeApiError(400, { type: 'invalid_request_error', message: `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`, param: 'items[0][price]' });
    }
    const subId = id('sub');
    const start = now();
    const end = periodEnd(start, price);
    const template = clone(fixtures.subscription);
    const item = { ...template.items.data[0], id: id('si'), created: start, price: clone(price), quantity: 1, subscription: subId, current_period_start: start, current_period_end: end };
    const sub: StripeObject = {
      ...template,
      id: subId,
      created: start,
      start_date: start,
      billing_cycle_anchor: start,
      customer: p.customer,
      currency: price.currency,
      status: 'active',
      metadata: (p.metadata as object) ?? {},
      items: { ...template.items, data: [item], total_count: 1, url: `/v1/subscription_items?subscription=${subId}` },
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      trial_start: null,
      trial_end: null,
      latest_invoice: null,
      schedule: null,
      test_clock: null,
    };
    subscriptions.set(subId, sub);
    emit('customer.subscription.created', sub);
    payInvoice(sub, start, end, 'subscription_create');
    return clone(sub);
  };

  /** DELETE: cancels now (Stripe's default; no invoice_now, no prorate). */
  const cancelSubscription = (subId: string): StripeObject => {
    const sub = get(subscriptions, 'subscription', subId);
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
      throw new StripeApiError(400, { type: 'invalid_request_error', code: 'resource_missing', message: `No such subscription: '${subId}'`, param: 'id' });
    }
    const at = now();
    const previous = { status: sub.status, canceled_at: null, ended_at: null };
    Object.assign(sub, { status: 'canceled', canceled_at: at, ended_at: at, cancellation_details: { comment: null, feedback: null, reason: 'cancellation_requested' } });
    emit('customer.subscription.deleted', sub, previous);
    return clone(sub);
  };

  /** POST /v1/checkout/sessions/{id}/expire: only an open session can be expired (as Stripe answers). */
  const expireOpenSession = (sessionId: string): unknown => {
    const session = get(sessions, 'checkout.session', sessionId);
    if (session.status !== 'open')
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`,
      });
    Object.assign(session, { status: 'expired', url: null });
    emit('checkout.session.expired', publicSession(session) as StripeObject);
    return publicSession(session);
  };

  const route = (method: string, path: string, params: Params): unknown => {
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/customers') return createCustomer(params);
    if (method === 'POST' && path === '/v1/checkout/sessions') return publicSession(createSession(params));
    if (method === 'GET' && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) return publicSession(get(sessions, 'checkout.session', m[1]));
    if (method === 'POST' && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/))) return expireOpenSession(m[1]);
    if (method === 'GET' && (m = path.match(/^\/v1\/payment_intents\/([^/]+)$/))) return paymentIntentOf(m[1], (params.expand as string[]) ?? []);
    if (method === 'POST' && path === '/v1/refunds') return createRefund(params);
    if (method === 'GET' && path === '/v1/refunds') return listRefunds(params);
    if (method === 'GET' && (m = path.match(/^\/v1\/refunds\/([^/]+)$/))) return clone(get(refunds, 'refund', m[1]));
    if (method === 'GET' && path === '/v1/payment_methods') return listPaymentMethods(params);
    if (method === 'GET' && (m = path.match(/^\/v1\/setup_intents\/([^/]+)$/))) return clone(get(setupIntents, 'setup_intent', m[1]));
    if (method === 'POST' && path === '/v1/prices') return clone(createPrice(params));
    if (method === 'GET' && (m = path.match(/^\/v1\/prices\/([^/]+)$/))) return clone(get(prices, 'price', m[1]));
    if (method === 'POST' && path === '/v1/subscriptions') return createSubscription(params);
    if (method === 'GET' && (m = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) return clone(get(subscriptions, 'subscription', m[1]));
    if (method === 'DELETE' && (m = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) return cancelSubscription(m[1]);
    if (method === 'GET' && (m = path.match(/^\/v1\/invoices\/([^/]+)$/))) return clone(get(invoices, 'invoice', m[1]));
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
      const raw = Buffer.concat(chunks).toString('utf8');
      const replay = cacheKey ? idempotent.get(cacheKey) : undefined;
      if (replay) {
        // As Stripe: a key belongs to the parameters it was first sent with.
        if (replay.params !== raw) {
          return send(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          });
        }
        return send(replay.status, replay.body, true);
      }
      const params = method === 'GET' || method === 'DELETE' ? parse(url.search.slice(1)) : parse(raw);
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
      if (cacheKey && status < 500) idempotent.set(cacheKey, { status, body, params: raw });
      const hold = method === 'POST' && url.pathname === '/v1/refunds' && status === 200 ? refundHold : null;
      if (!hold) return send(status, body);
      refundHold = null;
      hold.onCreated(body as StripeObject);
      void hold.released.then(() => send(status, body));
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
    setupIntents,
    prices,
    subscriptions,
    invoices,
    events,
    renewSubscription(subscriptionId) {
      const sub = get(subscriptions, 'subscription', subscriptionId);
      if (sub.status !== 'active') throw new Error(`subscription ${subscriptionId} is ${String(sub.status)}`);
      const item = (sub.items as { data: StripeObject[] }).data[0];
      const start = item.current_period_end as number;
      const end = periodEnd(start, item.price as StripeObject);
      const invoice = payInvoice(sub, start, end, 'subscription_cycle');
      const previous = { items: clone(sub.items), latest_invoice: sub.latest_invoice };
      Object.assign(item, { current_period_start: start, current_period_end: end });
      emit('customer.subscription.updated', sub, previous);
      return clone(invoice);
    },
    signWebhook(event, secret, timestamp = now()) {
      const payload = JSON.stringify(event, null, 2);
      const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
      return { payload, header: `t=${timestamp},v1=${signature}` };
    },
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
        emit('payment_intent.succeeded', intent);
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
        emit('setup_intent.succeeded', setupIntent);
      }
      emit('checkout.session.completed', publicSession(session) as StripeObject);
      return publicSession(session) as StripeObject;
    },
    expireCheckout(sessionId) {
      const session = get(sessions, 'checkout.session', sessionId);
      Object.assign(session, { status: 'expired', url: null });
      emit('checkout.session.expired', publicSession(session) as StripeObject);
      return publicSession(session) as StripeObject;
    },
    answerNextRefund(status) {
      nextRefundStatus = status;
    },
    updateRefund(refundId, status, options = {}) {
      const refund = get(refunds, 'refund', refundId);
      const previous = { status: refund.status, failure_reason: refund.failure_reason ?? null };
      const wasReversed = refund.status === 'failed' || refund.status === 'canceled';
      const reversed = status === 'failed' || status === 'canceled';
      Object.assign(refund, { status, failure_reason: status === 'failed' ? (options.failureReason ?? 'unknown') : null });
      // The money is back on the charge once the refund failed or was canceled.
      const charge = charges.get(refund.charge as string);
      if (charge && reversed !== wasReversed) {
        charge.amount_refunded = (charge.amount_refunded as number) + (reversed ? -1 : 1) * (refund.amount as number);
        charge.refunded = charge.amount_refunded === charge.amount;
      }
      return emit(options.type ?? (status === 'failed' ? 'refund.failed' : 'refund.updated'), refund, previous);
    },
    dashboardRefund(paymentIntentId, options = {}) {
      if (options.status) nextRefundStatus = options.status;
      const refund = createRefund({ payment_intent: paymentIntentId, amount: options.amount, reason: options.reason });
      const [created, chargeRefunded] = events.slice(-2);
      return { refund: clone(refund), created, chargeRefunded };
    },
    holdNextRefund() {
      let release!: () => void;
      let onCreated!: (refund: StripeObject) => void;
      const released = new Promise<void>((r) => (release = r));
      const created = new Promise<StripeObject>((r) => (onCreated = r));
      refundHold = { onCreated, released };
      return { created, release };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
