/* A sold-out session's waitlist page: the join form and its call. */
import type { PublicCourse, PublicSession, WaitlistJoinResult } from '@studio/contracts';
import { MAX_PARTY_SIZE } from '@studio/contracts/src/storefront/store-rules';
import { WAITLIST_MESSAGES } from '@studio/contracts/src/scheduling/waitlist-rules';
import { useState } from 'react';
import { priceText, seatsText, sessionWhen } from '../format';
import { appLinks, storeSlug } from '../links';
import { store, storeAnswer, type StoreRefusal } from '../store-call';
import type { PageProps } from '../types';
import { Layout } from './layout';

export type WaitlistData = { store_name: string; course: PublicCourse; session: PublicSession };

type JoinAnswer = WaitlistJoinResult;

/** The page's own words (the rules' messages come from the contracts). */
export const WAITLIST_PAGE_TEXTS = {
  intro:
    "This session is sold out. Join the waitlist: if seats free up, we'll email you a link and hold them for you.",
  hasSeats: 'This session has seats left.',
  joining: 'Joining…',
  join: 'Join the waitlist',
} as const;

/**
 * /s/{slug}/waitlist?event_id=…: a sold-out session's waitlist (issue 23): name, email and party
 * size; the store answers joined, in the same words whether or not the email was already waiting
 * (a confirmation, or the owner's reminder of their place, is mailed). A session with seats left
 * sends the buyer to its checkout instead.
 */
export function WaitlistPage({ data, base }: PageProps<WaitlistData>) {
  const { course, session } = data;
  const when = sessionWhen(session);
  const [who, setWho] = useState({ name: '', email: '' });
  const [party, setParty] = useState(1);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [done, setDone] = useState<JoinAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const hasSeats = !session.sold_out && session.seats_left > 0;

  const join = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setMessage(null);
    try {
      setDone(
        await storeAnswer(
          store.POST('/api/public/{slug}/sessions/{event_id}/waitlist', {
            params: { path: { slug: storeSlug(base), event_id: session.event_id } },
            body: { ...who, party_size: party },
          }),
        ),
      );
    } catch (error) {
      const refused = error as StoreRefusal;
      setErrors(refused.errors ?? {});
      setMessage(refused.message);
    } finally {
      setBusy(false);
    }
  };
  const described = (id: string) =>
    errors[id] ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
  const error = (id: string) =>
    errors[id] ? (
      <p className="field-error" id={`${id}-error`} role="alert">
        {errors[id]}
      </p>
    ) : null;

  return (
    <Layout base={base} storeName={data.store_name}>
      <p className="breadcrumb">
        <a href={appLinks.course(base, course.activity_id)}>{course.name}</a>
      </p>
      <h1>Waitlist: {course.name}</h1>
      <section className="checkout-summary" aria-label="The session">
        <p className="session-date">{when.date}</p>
        <p className="session-time">{when.time}</p>
        <p>{session.online ? 'Online' : session.location_name}</p>
        <p>
          {priceText(session.price_cents, course.free)}
          {course.free ? '' : ' a seat'} · {seatsText(session)}
        </p>
      </section>
      {done ? (
        <p role="status" className="notice">
          {done.message}
        </p>
      ) : hasSeats ? (
        <p role="status">
          {WAITLIST_PAGE_TEXTS.hasSeats}{' '}
          <a href={appLinks.checkoutSession(base, session.event_id)}>Book it</a>
        </p>
      ) : (
        <form className="checkout-form" onSubmit={join} noValidate aria-label="Join the waitlist">
          <p>{WAITLIST_PAGE_TEXTS.intro}</p>
          <div className="field">
            <label htmlFor="name">Name</label>
            <input
              id="name"
              autoComplete="name"
              required
              maxLength={200}
              value={who.name}
              onInput={(e) => setWho({ ...who, name: (e.target as HTMLInputElement).value })}
              {...described('name')}
            />
            {error('name')}
          </div>
          <div className="field">
            <label htmlFor="email">Email</label>
            <input
              id="email"
              type="email"
              autoComplete="email"
              required
              maxLength={254}
              value={who.email}
              onInput={(e) => setWho({ ...who, email: (e.target as HTMLInputElement).value })}
              {...described('email')}
            />
            {error('email')}
          </div>
          <div className="field">
            <label htmlFor="party_size">Seats</label>
            <select
              id="party_size"
              value={String(party)}
              onChange={(e) => setParty(Number((e.target as HTMLSelectElement).value))}
              {...described('party_size')}
            >
              {Array.from({ length: MAX_PARTY_SIZE }, (_, i) => i + 1).map((n) => (
                <option key={n} value={String(n)}>
                  {n === 1 ? '1 seat' : `${n} seats`}
                </option>
              ))}
            </select>
            {error('party_size')}
          </div>
          {message && Object.keys(errors).length === 0 ? (
            <p className="form-error" role="alert">
              {message === WAITLIST_MESSAGES.hasSeats ? (
                <>
                  {message} <a href={appLinks.checkoutSession(base, session.event_id)}>Book it</a>
                </>
              ) : (
                message
              )}
            </p>
          ) : null}
          <button type="submit" className="button" disabled={busy}>
            {busy ? WAITLIST_PAGE_TEXTS.joining : WAITLIST_PAGE_TEXTS.join}
          </button>
        </form>
      )}
    </Layout>
  );
}
