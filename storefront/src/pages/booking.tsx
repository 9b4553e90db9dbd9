/* A booking's manage page: the booking, its cancel and move calls, and an appointment's free times. */
import type { PublicBooking } from '@studio/contracts';
import { MANAGE_MESSAGES } from '@studio/contracts/src/scheduling/manage-booking-rules';
import {
  STUDENT_REFUND_DESTINATION_LABELS,
  type RefundDestination,
} from '@studio/contracts/src/wallet/refund-credit-rules';
import { useEffect, useState } from 'react';
import { dateTimeInZone, priceText, sessionWhen } from '../format';
import { storeSlug } from '../links';
import { store, storeAnswer, type StoreRefusal } from '../store-call';
import type { PageProps } from '../types';
import { Layout } from './layout';

/** The manage token, from the page's own address (/s/{slug}/booking/{token}). */
const tokenOf = () =>
  decodeURIComponent(globalThis.location.pathname.split('/').filter(Boolean).at(-1) ?? '');

/** What the student is paid back, in words. */
function refundLine(data: PublicBooking): string | null {
  if (data.refunded_cents <= 0) return null;
  if (data.refund_status === 'processing')
    return `Your refund of ${priceText(data.refunded_cents, false)} is on its way.`;
  return `Refunded: ${priceText(data.refunded_cents, false)}.`;
}

/**
 * A booking's own page (issue 23), opened from the link in its confirmation mail: the course, the
 * time in the location's zone, the place, the party and what was paid, and what the student may do
 * now by the course's policies: cancel (with the refund it gives, in the policy's words) and move to
 * another session of the course with seats. "Contact the studio" policies show that instead of a
 * button. A cancelled booking says so.
 */
export function BookingPage({ data: initial, base }: PageProps<PublicBooking>) {
  const [data, setData] = useState(initial);
  const [busy, setBusy] = useState<'cancel' | 'move' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [target, setTarget] = useState(initial.move_targets[0]?.event_id ?? '');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  useEffect(() => setTarget((t) => t || data.move_targets[0]?.event_id || ''), [data.move_targets]);
  const bookingPath = () => ({ path: { slug: storeSlug(base), token: tokenOf() } });
  // An appointment moves to another free time of its course: the next four weeks' (asked in the browser).
  const [slots, setSlots] = useState<string[] | null>(null);
  const [slot, setSlot] = useState('');
  const wantsSlots = data.kind === 'appointment' && data.status === 'active' && data.reschedule.allowed;
  useEffect(() => {
    if (!wantsSlots) return;
    const from = new Date();
    const to = new Date(from.getTime() + 28 * 86_400_000);
    storeAnswer(
      store.GET('/api/public/{slug}/activities/{activity_id}/slots', {
        params: {
          path: { slug: storeSlug(base), activity_id: data.activity_id },
          query: { from: from.toISOString(), to: to.toISOString() },
        },
      }),
    )
      .then((answer) => {
        const starts = answer.slots
          .map((s) => s.starts_at)
          .filter((s) => s !== data.starts_at)
          .slice(0, 60);
        setSlots(starts);
        setSlot(starts[0] ?? '');
      })
      .catch(() => setSlots([]));
  }, [wantsSlots, base, data.activity_id, data.starts_at]);

  const act = async (what: 'cancel' | 'move', refundTo?: RefundDestination) => {
    setBusy(what);
    setError(null);
    try {
      const next =
        what === 'cancel'
          ? refundTo === 'store_credit'
            ? await storeAnswer(
                store.POST('/api/public/{slug}/bookings/{token}/cancel', {
                  params: bookingPath(),
                  body: { refund_to: refundTo },
                }),
              )
            : await storeAnswer(store.POST('/api/public/{slug}/bookings/{token}/cancel', { params: bookingPath() }))
          : await storeAnswer(
              store.POST('/api/public/{slug}/bookings/{token}/reschedule', {
                params: bookingPath(),
                body: data.kind === 'appointment' ? { starts_at: slot } : { event_id: target },
              }),
            );
      setData(next);
      setDone(what === 'cancel' ? MANAGE_MESSAGES.cancelledDone : MANAGE_MESSAGES.rescheduledDone);
      setConfirming(false);
    } catch (refusal) {
      setError((refusal as StoreRefusal).message);
    } finally {
      setBusy(null);
    }
  };

  const when = sessionWhen(data);
  const cancelled = data.status === 'cancelled';
  const refund = refundLine(data);
  return (
    <Layout base={base} storeName={data.store_name}>
      <h1>{cancelled ? 'This booking is cancelled' : 'Your booking'}</h1>
      {done ? <p role="status">{done}</p> : null}
      {cancelled ? <p role="status">{refund ?? 'Nothing was refunded.'}</p> : null}
      {cancelled && data.use ? <p>{data.use.message}</p> : null}
      <section className="checkout-summary" aria-label="Your booking">
        <h2>{data.course_name}</h2>
        <p>
          {when.date}, {when.time}
        </p>
        <p>{data.online ? 'Online' : `${data.location_name}${data.address ? `, ${data.address}` : ''}`}</p>
        <p>
          {data.kind === 'appointment'
            ? data.party_size === 1
              ? '1 person'
              : `${data.party_size} people`
            : data.party_size === 1
              ? '1 seat'
              : `${data.party_size} seats`}
        </p>
      </section>
      <dl className="checkout-total">
        {data.order_number !== null ? (
          <>
            <dt>Order</dt>
            <dd>#{data.order_number}</dd>
          </>
        ) : null}
        <dt>Paid</dt>
        <dd>{priceText(data.paid_cents)}</dd>
        {data.refunded_cents > 0 ? (
          <>
            <dt>Refunded</dt>
            <dd>{priceText(data.refunded_cents, false)}</dd>
          </>
        ) : null}
      </dl>
      {!cancelled ? (
        <>
          <section aria-labelledby="cancel-heading" className="manage-section">
            <h2 id="cancel-heading">Cancel</h2>
            <p>
              {data.cancel.policy.name}: {data.cancel.policy.rule}.
            </p>
            {data.cancel.allowed ? (
              <>
                <p>
                  {data.cancel.refund_cents > 0
                    ? `If you cancel now, ${priceText(data.cancel.refund_cents, false)} goes back to your payment.`
                    : 'If you cancel now, nothing is refunded.'}
                </p>
                {/* Issue 24: the membership booking or pack credit it used comes back inside the policy's full-refund window. */}
                {data.use ? <p>{data.use.message}</p> : null}
                {confirming ? (
                  <div className="inline">
                    {data.cancel.refund_cents > 0 ? (
                      (['card', 'store_credit'] as const).map((to) => (
                        <button
                          key={to}
                          type="button"
                          className="button"
                          disabled={busy !== null}
                          onClick={() => void act('cancel', to)}
                        >
                          {busy === 'cancel' ? 'Cancelling…' : STUDENT_REFUND_DESTINATION_LABELS[to]}
                        </button>
                      ))
                    ) : (
                      <button
                        type="button"
                        className="button"
                        disabled={busy !== null}
                        onClick={() => void act('cancel')}
                      >
                        {busy === 'cancel' ? 'Cancelling…' : 'Yes, cancel my booking'}
                      </button>
                    )}
                    <button
                      type="button"
                      className="button secondary"
                      disabled={busy !== null}
                      onClick={() => setConfirming(false)}
                    >
                      Keep my booking
                    </button>
                  </div>
                ) : (
                  <button type="button" className="button secondary" onClick={() => setConfirming(true)}>
                    Cancel booking
                  </button>
                )}
              </>
            ) : (
              <p>
                <strong>{MANAGE_MESSAGES.contactStudio}</strong> to cancel.
              </p>
            )}
          </section>
          <section aria-labelledby="move-heading" className="manage-section">
            <h2 id="move-heading">Reschedule</h2>
            <p>
              {data.reschedule.policy.name}: {data.reschedule.policy.rule}.
            </p>
            {!data.reschedule.allowed ? (
              <p>
                <strong>{MANAGE_MESSAGES.contactStudio}</strong> to change the time.
              </p>
            ) : data.kind === 'appointment' ? (
              slots === null ? (
                <p>Looking for free times…</p>
              ) : slots.length === 0 ? (
                <p>No other time is free in the next weeks. Contact the studio.</p>
              ) : (
                <div className="field">
                  <label htmlFor="move-slot">Move to</label>
                  <select
                    id="move-slot"
                    value={slot}
                    onChange={(e) => setSlot((e.target as HTMLSelectElement).value)}
                  >
                    {slots.map((start) => (
                      <option key={start} value={start}>
                        {dateTimeInZone(start, data.timezone)}
                      </option>
                    ))}
                  </select>
                  <button
                    type="button"
                    className="button"
                    disabled={busy !== null || !slot}
                    onClick={() => void act('move')}
                  >
                    {busy === 'move' ? 'Moving…' : 'Move my appointment'}
                  </button>
                </div>
              )
            ) : data.move_targets.length === 0 ? (
              <p>No other session of this course has seats for your party right now.</p>
            ) : (
              <div className="field">
                <label htmlFor="move-target">Move to</label>
                <select
                  id="move-target"
                  value={target}
                  onChange={(e) => setTarget((e.target as HTMLSelectElement).value)}
                >
                  {data.move_targets.map((s) => (
                    <option key={s.event_id} value={s.event_id}>
                      {dateTimeInZone(s.starts_at, data.timezone)} ({s.seats_left}{' '}
                      {s.seats_left === 1 ? 'seat' : 'seats'} left)
                    </option>
                  ))}
                </select>
                <button
                  type="button"
                  className="button"
                  disabled={busy !== null || !target}
                  onClick={() => void act('move')}
                >
                  {busy === 'move' ? 'Moving…' : 'Move my booking'}
                </button>
              </div>
            )}
          </section>
        </>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <p>
        <a href={base}>Back to the store</a>
      </p>
    </Layout>
  );
}
