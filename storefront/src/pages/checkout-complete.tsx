/* The page after a checkout: the order as the store says it is (read again while its payment settles). */
import type { PublicOrder } from '@studio/contracts';
import { Fragment, useEffect, useState } from 'react';
import { zonesLine } from '@studio/contracts/src/storefront/store-rules';
import { browserTimeZone } from '@studio/contracts/src/time';
import { dateTimeInZone, priceText, productPriceText, sessionWhen } from '../format';
import { storeSlug } from '../links';
import { store } from '../store-call';
import type { PageProps } from '../types';
import { Layout } from './layout';

/** While the payment settles, the page asks the store again this often, for at most this long. */
export const PENDING_POLL_MS = 1500;
export const PENDING_POLL_LIMIT_MS = 120_000;

/**
 * The order as the store says it is now: a buyer back from the payment page often arrives before
 * the payment's settlement (an outbox job), so a pending order is read again until it is settled
 * (or the limit passes; the page then keeps its "Refresh this page" link).
 */
function useSettledOrder(initial: PublicOrder, base: string): PublicOrder {
  const [order, setOrder] = useState(initial);
  useEffect(() => {
    if (order.status !== 'pending') return;
    const query = new URLSearchParams(globalThis.location.search);
    const id = query.get('order');
    const token = query.get('token');
    if (!id || !token) return;
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout>;
    let live = true;
    const ask = async () => {
      try {
        const { data: next } = await store.GET('/api/public/{slug}/orders/{order_id}', {
          params: { path: { slug: storeSlug(base), order_id: id }, query: { token } },
          headers: { accept: 'application/json' },
        });
        if (next && live && next.status !== 'pending') return setOrder(next);
      } catch {
        // Offline for a moment: ask again.
      }
      if (live && Date.now() - started < PENDING_POLL_LIMIT_MS)
        timer = setTimeout(() => void ask(), PENDING_POLL_MS);
    };
    timer = setTimeout(() => void ask(), PENDING_POLL_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [order.status, base]);
  return order;
}

/**
 * The booking's page after the checkout (the confirmation link, with the order's token): booked,
 * still waiting for the payment, or not completed; with the checkout form's answers the buyer gave.
 */
export function CheckoutCompletePage({ data: initial, base }: PageProps<PublicOrder>) {
  const data = useSettledOrder(initial, base);
  const session = data.session;
  const product = data.product;
  const appointment = data.appointment ?? null;
  const when = session ? sessionWhen(session) : null;
  // An appointment's time in the visitor's zone (the server renders the location's until hydrated).
  const [zone, setZone] = useState(appointment?.timezone ?? 'UTC');
  useEffect(() => setZone(browserTimeZone()), []);
  const title =
    data.status === 'paid' && product
      ? product.kind === 'subscription'
        ? 'Your membership is active'
        : 'Thank you for your order'
      : data.status === 'paid'
        ? "You're booked"
        : data.status === 'pending'
          ? 'Waiting for your payment'
          : data.status === 'failed'
            ? 'This booking was not completed'
            : data.status === 'refunded'
              ? 'Your payment was refunded'
              : 'Your booking';
  return (
    <Layout base={base} storeName={data.store_name}>
      <h1>{title}</h1>
      {data.status === 'paid' ? (
        <p role="status">
          Thank you, {data.buyer.first_name}. A confirmation is on its way to {data.buyer.email}.
        </p>
      ) : data.status === 'pending' ? (
        <p role="status">
          {product
            ? 'Your order waits for the payment to complete.'
            : appointment
              ? 'Your time is held while the payment completes.'
              : 'Your seats are held while the payment completes.'}{' '}
          <a href="">Refresh this page</a> in a moment.
        </p>
      ) : data.status === 'failed' ? (
        <p role="status">
          {product
            ? 'The payment was not made.'
            : appointment
              ? 'The payment was not made, so the time was given back.'
              : 'The payment was not made, so the seats were given back.'}{' '}
          Nothing was charged.
        </p>
      ) : data.status === 'refunded' ? (
        <p role="status">
          Your payment was refunded in full. If the seats went to someone else before your payment completed,
          please pick another session.
        </p>
      ) : null}
      {session && when ? (
        <section className="checkout-summary" aria-label="Your booking">
          <h2>{session.name}</h2>
          <p>
            {when.date}, {when.time}
          </p>
          <p>
            {session.online
              ? 'Online'
              : `${session.location_name}${session.address ? `, ${session.address}` : ''}`}
          </p>
          <p>{session.party_size === 1 ? '1 seat' : `${session.party_size} seats`}</p>
        </section>
      ) : null}
      {appointment ? (
        <section className="checkout-summary" aria-label="Your appointment">
          <h2>{appointment.course_name}</h2>
          <p>{dateTimeInZone(appointment.starts_at, zone)}</p>
          {zonesLine(zone, appointment.timezone) ? (
            <p className="zones-line">
              {zonesLine(zone, appointment.timezone)} There it is{' '}
              {dateTimeInZone(appointment.starts_at, appointment.timezone)}.
            </p>
          ) : null}
          <p>
            {appointment.online
              ? 'Online'
              : `${appointment.location_name}${appointment.address ? `, ${appointment.address}` : ''}`}
          </p>
          <p>{appointment.party_size === 1 ? '1 person' : `${appointment.party_size} people`}</p>
        </section>
      ) : null}
      {product ? (
        <section className="checkout-summary" aria-label="Your order">
          {product.image_url ? <img className="card-image" src={product.image_url} alt="" /> : null}
          <h2>{product.name}</h2>
          {product.kind === 'subscription' && product.renewal_interval_unit ? (
            <p>
              {productPriceText({
                kind: product.kind,
                price_cents: data.total_cents,
                renewal_interval_unit: product.renewal_interval_unit,
                renewal_interval_quantity: product.renewal_interval_quantity,
              })}
              , until you cancel
            </p>
          ) : null}
        </section>
      ) : null}
      <dl className="checkout-total">
        <dt>Order</dt>
        <dd>#{data.order_number}</dd>
        {data.discount_cents > 0 ? (
          <>
            <dt>Discount</dt>
            <dd>−{priceText(data.discount_cents, false)}</dd>
          </>
        ) : null}
        {data.points_cents > 0 ? (
          <>
            <dt>Points</dt>
            <dd>−{priceText(data.points_cents, false)}</dd>
          </>
        ) : null}
        <dt>Total</dt>
        <dd>{priceText(data.total_cents)}</dd>
        {(data.paid_with ?? []).map((paid, i) => (
          <Fragment key={i}>
            <dt>Paid with {paid.label}</dt>
            <dd>{paid.amount}</dd>
          </Fragment>
        ))}
        {(data.paid_with ?? []).length > 0 && data.card_cents > 0 ? (
          <>
            <dt>Paid by card</dt>
            <dd>{priceText(data.card_cents, false)}</dd>
          </>
        ) : null}
      </dl>
      {(data.answers ?? []).some((set) => set.answers.length > 0) ? (
        <section className="checkout-answers" aria-labelledby="answers-heading">
          <h2 id="answers-heading">Your answers</h2>
          {(data.answers ?? []).map((set, index) => (
            <div key={index}>
              {set.ticket !== null ? <h3>Ticket {set.ticket}</h3> : null}
              <dl className="answer-list">
                {set.answers.map((a, i) => (
                  <div key={i}>
                    <dt>{a.label}</dt>
                    <dd>{a.value || '—'}</dd>
                  </div>
                ))}
              </dl>
            </div>
          ))}
        </section>
      ) : null}
      {data.receipt_url ? (
        <p>
          <a href={data.receipt_url} target="_blank" rel="noopener noreferrer">
            See your receipt
          </a>
        </p>
      ) : null}
      <p>
        <a href={base}>Back to the store</a>
      </p>
    </Layout>
  );
}
