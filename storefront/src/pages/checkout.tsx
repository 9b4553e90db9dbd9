/* A session's or an appointment's checkout page: what is booked, the buyer's choices, and the Book call. */
import type { PublicCourse, PublicSession, PublicStore } from '@studio/contracts';
import { partySizeLimit, zonesLine } from '@studio/contracts/src/storefront/store-rules';
import { browserTimeZone } from '@studio/contracts/src/time';
import { useEffect, useState } from 'react';
import { dateTimeInZone, priceText, seatsText, sessionWhen } from '../format';
import { navigate } from '../framed';
import { appLinks, storeSlug } from '../links';
import type { PageProps } from '../types';
import { CheckoutFormFields } from './checkout-form';
import { WaiverStep, type WaiverState } from './checkout-waiver';
import { STORE_WAIVER_MESSAGES } from '@studio/contracts/src/storefront/store-waiver-messages';
import { store, storeAnswer, type StoreRefusal } from '../store-call';
import { PointsSection, type PointsChoice } from './checkout-points';
import { CheckoutTotal, Field } from './checkout-parts';
import { bookRequest, type CheckoutTarget, type PricedChoices } from './checkout-request';
import { useCheckoutAnswers } from './use-checkout-answers';
import { useCheckoutQuote } from './use-checkout-quote';
import { useWaitlistClaim } from './use-waitlist-claim';
import { Layout } from './layout';

/** A session's checkout, or an appointment course's at a start (issue 22; null: not a time it offers). */
export type CheckoutData =
  | {
      store_name: string;
      course: PublicCourse;
      session: PublicSession;
      /** A waitlist offer's claim link (issue 23): the checkout books the seats it holds. */
      claim_token?: string | null;
    }
  | { store_name: string; course: PublicCourse; appointment: { starts_at: string; ends_at: string } | null };

/** An appointment checkout's data from the course, the store and the start in the address. */
export function appointmentCheckoutData(
  course: PublicCourse,
  store: Pick<PublicStore, 'name'>,
  startsAt: string,
): CheckoutData {
  const start = new Date(startsAt);
  const valid =
    course.activity_type === 'appointment' &&
    /^\d{4}-\d{2}-\d{2}T/.test(startsAt) &&
    Number.isFinite(start.getTime());
  return {
    store_name: store.name,
    course,
    appointment: valid
      ? {
          starts_at: start.toISOString(),
          ends_at: new Date(start.getTime() + (course.duration_mins ?? 0) * 60_000).toISOString(),
        }
      : null,
  };
}

/**
 * Where the page sends the buyer next (a test watches it); framed in the checkout overlay, a
 * payment page on another origin (Stripe) opens in the top window (framed.ts).
 */
export const browser = { go: (url: string) => navigate(url) };

/** What the buyer is told when the form's answers need fixing (each message is under its field). */
const CHECK_ANSWERS = 'Check the answers marked below.';

/**
 * A session's checkout, or an appointment course's at a start (issue 22: its time shown in the
 * visitor's zone, the party up to the course's capacity): the party, the buyer, the course's
 * checkout form (per order, or one set per seat), a discount code. The answers are checked by the
 * same schema as the server's before posting (use-checkout-answers.ts). The total shown comes from
 * the store's quote (the server prices it; the page only displays it; use-checkout-quote.ts). Book
 * holds the seats and goes to the payment page, or to the confirmation when nothing is due.
 */
export function CheckoutPage({ data, base }: PageProps<CheckoutData>) {
  const { course } = data;
  const session = 'session' in data ? data.session : null;
  const appointment = 'appointment' in data ? data.appointment : null;
  // What is booked: a session, or the appointment course's time (issue 22).
  const target: CheckoutTarget = session
    ? { event_id: session.event_id }
    : { activity_id: course.activity_id, starts_at: appointment?.starts_at ?? '' };
  const when = session ? sessionWhen(session) : null;
  // An appointment's time in the visitor's zone (the server renders the location's until hydrated).
  const studioZone = course.location.timezone;
  const [zone, setZone] = useState(studioZone);
  useEffect(() => setZone(browserTimeZone()), []);
  const slug = storeSlug(base);
  const [party, setParty] = useState(1);
  const [buyer, setBuyer] = useState({ first_name: '', last_name: '', email: '' });
  // A waitlist offer's claim (issue 23): its seats are held for the party offered them.
  const claimToken = 'session' in data ? (data.claim_token ?? null) : null;
  const claim = useWaitlistClaim(slug, claimToken, setParty, setBuyer);
  const offer = claim && claim !== 'failed' && claim.status === 'offered' ? claim : null;
  const limit = offer
    ? offer.party_size
    : session
      ? partySizeLimit(session.seats_left)
      : appointment
        ? (course.max_party_size ?? 1)
        : 0;
  const [code, setCode] = useState('');
  // A gift card's code as mailed (issue 24): it pays what it can, whoever types it.
  const [giftCode, setGiftCode] = useState('');
  const [points, setPoints] = useState<PointsChoice | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // One key per attempt: a retried click replays the same booking instead of making another.
  const [attemptKey, setAttemptKey] = useState<string | null>(null);
  // The course's waiver, signed in the checkout before paying (a new buyer email starts it again).
  const [waiver, setWaiver] = useState<WaiverState>({ signed: false, token: null });
  const waiverWaits = course.requires_waiver && !waiver.signed;
  const form = course.checkout_form ?? null;
  const { answers, sets, answer, answersSent, checkAnswers } = useCheckoutAnswers(form, party);
  const { quote, refreshQuote: quoteChoices } = useCheckoutQuote(slug, setErrors);

  const unit = session ? session.price_cents : course.price_cents;
  const shownTotal = quote ? quote.total_cents : unit * party;
  /** What the card pays: the total less what the buyer's holdings pay. */
  const shownDue = quote ? (quote.due_cents ?? quote.total_cents) : shownTotal;

  /** What the buyer chose that the price depends on. */
  const priced = (
    nextParty = party,
    nextCode = code,
    nextPoints = points,
    nextGift = giftCode,
  ): PricedChoices => ({ target, party: nextParty, code: nextCode, points: nextPoints, giftCode: nextGift });
  // Only the newest quote asked is shown (points are quoted as they are typed).
  const refreshQuote = (nextParty: number, nextCode: string, nextPoints = points, nextGift = giftCode) =>
    quoteChoices(priced(nextParty, nextCode, nextPoints, nextGift));

  const book = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    setErrors({});
    const refused = await checkAnswers();
    if (Object.keys(refused).length > 0) {
      setErrors(refused);
      setMessage(refused.answers ?? CHECK_ANSWERS);
      setBusy(false);
      return;
    }
    const key =
      attemptKey ??
      `${session?.event_id ?? course.activity_id}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    setAttemptKey(key);
    try {
      const result = await storeAnswer(
        store.POST('/api/public/{slug}/checkout', {
          params: { path: { slug }, header: { 'Idempotency-Key': key } },
          body: bookRequest({
            ...priced(),
            buyer,
            answers: sets > 0 ? answersSent() : null,
            waiverToken: waiver.token,
            claimToken: offer ? claimToken : null,
          }),
        }),
      );
      browser.go(result.payment_url ?? result.confirmation_url);
    } catch (error) {
      const refused = error as StoreRefusal;
      setErrors(refused.errors ?? {});
      setMessage(refused.message);
      // A refused booking took nothing: the next attempt is a new one.
      setAttemptKey(null);
      setBusy(false);
    }
  };

  const described = (id: string) =>
    errors[id] ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};

  return (
    <Layout base={base} storeName={data.store_name}>
      <p className="breadcrumb">
        <a href={appLinks.course(base, course.activity_id)}>{course.name}</a>
      </p>
      <h1>Book {course.name}</h1>
      {session && when ? (
        <section className="checkout-summary" aria-label="Your session">
          <p className="session-date">{when.date}</p>
          <p className="session-time">{when.time}</p>
          <p>{session.online ? 'Online' : session.location_name}</p>
          <p>
            {priceText(unit, course.free)}
            {course.free ? '' : ' a seat'} · {seatsText(session)}
          </p>
        </section>
      ) : appointment ? (
        <section className="checkout-summary" aria-label="Your appointment">
          <p className="session-time">{dateTimeInZone(appointment.starts_at, zone)}</p>
          {zonesLine(zone, studioZone) ? <p className="zones-line">{zonesLine(zone, studioZone)}</p> : null}
          <p>{course.location.online ? 'Online' : course.location.name}</p>
          <p>
            {priceText(unit, course.free)}
            {course.free ? '' : ' a person'}
          </p>
        </section>
      ) : null}
      {claimToken && !offer ? (
        <p role="status">
          {claim === null
            ? 'Checking your offer…'
            : claim === 'failed' || claim.status === 'ended'
              ? 'This offer has ended.'
              : 'This offer has already been claimed.'}{' '}
          {claim === null ? null : (
            <a href={appLinks.course(base, course.activity_id)}>See the other sessions</a>
          )}
        </p>
      ) : !session && !appointment ? (
        <p role="status">
          This time is not open for booking. Please pick another.{' '}
          <a href={appLinks.course(base, course.activity_id)}>Choose a time</a>
        </p>
      ) : limit === 0 ? (
        <p role="status">
          This session is sold out.{' '}
          {session ? <a href={appLinks.waitlist(base, session.event_id)}>Join the waitlist</a> : null}
        </p>
      ) : (
        <form className="checkout-form" onSubmit={book} noValidate>
          {offer?.offered_until ? (
            <p className="notice" role="status">
              {offer.party_size === 1 ? 'A seat is' : `${offer.party_size} seats are`} held for you until{' '}
              {dateTimeInZone(offer.offered_until, session?.timezone ?? course.location.timezone)}.
            </p>
          ) : null}
          <Field id="party_size" label={session ? 'Seats' : 'People'} error={errors.party_size}>
            <select
              id="party_size"
              value={String(party)}
              disabled={offer !== null}
              onChange={(e) => {
                const next = Number((e.target as HTMLSelectElement).value);
                setParty(next);
                void refreshQuote(next, code);
              }}
              {...described('party_size')}
            >
              {Array.from({ length: limit }, (_, i) => i + 1)
                .filter((n) => !offer || n === offer.party_size)
                .map((n) => (
                  <option key={n} value={String(n)}>
                    {session ? (n === 1 ? '1 seat' : `${n} seats`) : n === 1 ? '1 person' : `${n} people`}
                  </option>
                ))}
            </select>
          </Field>
          <Field id="first_name" label="First name" error={errors.first_name}>
            <input
              id="first_name"
              autoComplete="given-name"
              required
              value={buyer.first_name}
              onInput={(e) => setBuyer({ ...buyer, first_name: (e.target as HTMLInputElement).value })}
              {...described('first_name')}
            />
          </Field>
          <Field id="last_name" label="Last name" error={errors.last_name}>
            <input
              id="last_name"
              autoComplete="family-name"
              required
              value={buyer.last_name}
              onInput={(e) => setBuyer({ ...buyer, last_name: (e.target as HTMLInputElement).value })}
              {...described('last_name')}
            />
          </Field>
          <Field id="email" label="Email" error={errors.email}>
            <input
              id="email"
              type="email"
              autoComplete="email"
              required
              value={buyer.email}
              onInput={(e) => {
                const email = (e.target as HTMLInputElement).value;
                // The waiver is signed by the buyer of that email: another email signs again.
                if (email.trim().toLowerCase() !== buyer.email.trim().toLowerCase())
                  setWaiver({ signed: false, token: null });
                setBuyer({ ...buyer, email });
              }}
              {...described('email')}
            />
          </Field>
          {course.free ? null : (
            <PointsSection
              slug={slug}
              email={buyer.email}
              errors={errors}
              onChoose={(choice) => {
                setPoints(choice);
                void refreshQuote(party, code, choice);
              }}
            />
          )}
          {form && sets > 0 ? (
            <CheckoutFormFields
              form={form}
              count={sets}
              answers={answers}
              errors={errors}
              onAnswer={answer}
            />
          ) : null}
          {course.requires_waiver ? (
            <WaiverStep
              key={buyer.email.trim().toLowerCase()}
              slug={slug}
              target={session ? { event_id: session.event_id } : { activity_id: course.activity_id }}
              buyer={buyer}
              proof={points?.token ?? null}
              onChange={setWaiver}
            />
          ) : null}
          {course.free ? null : (
            <Field id="discount_code" label="Discount code (optional)" error={errors.discount_code}>
              <div className="inline">
                <input
                  id="discount_code"
                  value={code}
                  onInput={(e) => setCode((e.target as HTMLInputElement).value)}
                  {...described('discount_code')}
                />
                <button
                  type="button"
                  className="button secondary"
                  onClick={() => void refreshQuote(party, code)}
                >
                  Apply
                </button>
              </div>
            </Field>
          )}
          {course.free ? null : (
            <Field id="gift_card_code" label="Gift card code (optional)" error={errors.gift_card_code}>
              <div className="inline">
                <input
                  id="gift_card_code"
                  autoComplete="off"
                  value={giftCode}
                  onInput={(e) => setGiftCode((e.target as HTMLInputElement).value)}
                  {...described('gift_card_code')}
                />
                <button
                  type="button"
                  className="button secondary"
                  onClick={() => void refreshQuote(party, code, points, giftCode)}
                >
                  Use card
                </button>
              </div>
            </Field>
          )}
          <CheckoutTotal quote={quote} total={shownTotal} due={shownDue} free={course.free} />
          {message ? (
            <p className="form-error" role="alert">
              {message}
            </p>
          ) : null}
          {waiverWaits ? (
            <p className="pay-waits" id="pay-waits">
              {STORE_WAIVER_MESSAGES.payWaits}
            </p>
          ) : null}
          <button
            type="submit"
            className="button"
            disabled={busy || waiverWaits}
            {...(waiverWaits ? { 'aria-describedby': 'pay-waits' } : {})}
          >
            {busy ? 'Booking…' : shownDue > 0 ? 'Continue to payment' : 'Book now'}
          </button>
        </form>
      )}
    </Layout>
  );
}
