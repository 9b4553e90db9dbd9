/* The checkout's "Use your points" section: the emailed code, the proof of the email, and what it pays. */
import { POINTS_MESSAGES as PM, pointsWithValue } from '@studio/contracts/src/loyalty/points';
import type { PointsBalance } from '@studio/contracts/src/storefront/checkout.schema';
import { useState } from 'react';
import { browserTimeZone, formatDate } from '@studio/contracts/src/time';
import { store, storeAnswer, type StoreRefusal } from '../store-call';

type Holding = PointsBalance['holdings'][number];

/**
 * What the buyer chose with the proof of their email (points/verify): the points to spend, and
 * whether what they hold pays (issue 24): a membership or pack covering the booking, gift cards
 * and store credit paying what they can.
 */
export interface PointsChoice {
  token: string;
  points: number;
  cover_booking: boolean;
  use_wallet_money: boolean;
}

const BOOKING_KINDS = new Set(['membership', 'pack']);

type Refusal = StoreRefusal;

/**
 * "Use your points" (issue 21, step 6): the buyer asks for a code mailed to the email typed above,
 * types it, sees the balance and picks how many points to spend (100 points = $1.00). The store
 * checks it all again; its refusals of the points (`errors`) show under the points field.
 */
export function PointsSection({
  slug,
  email,
  errors,
  onChoose,
  forBooking = true,
  walletMoney = true,
}: {
  /** The store's slug (its Storefront API). */
  slug: string;
  email: string;
  errors: Record<string, string>;
  /** The choice, with what the email holds (for a page that shows what it pays without a quote). */
  onChoose: (choice: PointsChoice | null, holdings?: Holding[]) => void;
  /** A booking (a membership or pack may cover it, points may pay); false for a product. */
  forBooking?: boolean;
  /** Whether gift cards and credit may pay (not a subscription). */
  walletMoney?: boolean;
}) {
  const [stage, setStage] = useState<'start' | 'sent' | 'verified'>('start');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [proof, setProof] = useState<{ token: string; points: number; holdings: Holding[] } | null>(null);
  const [cover, setCover] = useState(true);
  const [money, setMoney] = useState(true);
  const [amount, setAmount] = useState('');
  const [local, setLocal] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const send = async () => {
    setLocal({});
    if (!email.trim()) {
      setLocal({ points_email: PM.pointsEmailFirst });
      return;
    }
    setBusy(true);
    try {
      const answer = await storeAnswer(
        store.POST('/api/public/{slug}/points/code', { params: { path: { slug } }, body: { email: email.trim() } }),
      );
      setSent(answer.message);
      setStage('sent');
    } catch (error) {
      const refused = error as Refusal;
      setLocal({ points_email: refused.errors?.email ?? refused.message });
    }
    setBusy(false);
  };

  const check = async () => {
    setLocal({});
    if (!/^\d{6}$/.test(code.trim())) {
      setLocal({ points_code: PM.pointsCodeFormat });
      return;
    }
    setBusy(true);
    try {
      const answer = await storeAnswer(
        store.POST('/api/public/{slug}/points/verify', {
          params: { path: { slug } },
          body: { email: email.trim(), code: code.trim() },
        }),
      );
      const holdings = answer.holdings.filter((h) => (BOOKING_KINDS.has(h.kind) ? forBooking : walletMoney));
      setProof({ token: answer.points_token, points: answer.points, holdings });
      setStage('verified');
      onChoose(choiceOf(answer.points_token, 0, holdings, cover, money), holdings);
    } catch (error) {
      const refused = error as Refusal;
      setLocal({ points_code: refused.errors?.code ?? refused.message });
    }
    setBusy(false);
  };

  const choose = (text: string) => {
    if (!proof) return;
    const points = text.trim() === '' ? 0 : Number(text);
    if (!Number.isInteger(points) || points < 0) {
      setLocal({ redeem_points: PM.pointsAmount });
      return;
    }
    if (points > proof.points) {
      setLocal({ redeem_points: PM.pointsInsufficient(proof.points) });
      return;
    }
    setLocal({});
    setPointsChosen(points);
    onChoose(choiceOf(proof.token, points, proof.holdings, cover, money), proof.holdings);
  };

  const [pointsChosen, setPointsChosen] = useState(0);
  /** Only the holdings the buyer has are asked to pay. */
  const choiceOf = (
    token: string,
    points: number,
    holdings: Holding[],
    coverOn: boolean,
    moneyOn: boolean,
  ): PointsChoice => ({
    token,
    points,
    cover_booking: coverOn && holdings.some((h) => BOOKING_KINDS.has(h.kind)),
    use_wallet_money: moneyOn && holdings.some((h) => !BOOKING_KINDS.has(h.kind)),
  });
  const toggle = (which: 'cover' | 'money', on: boolean) => {
    if (!proof) return;
    const nextCover = which === 'cover' ? on : cover;
    const nextMoney = which === 'money' ? on : money;
    setCover(nextCover);
    setMoney(nextMoney);
    onChoose(choiceOf(proof.token, pointsChosen, proof.holdings, nextCover, nextMoney), proof.holdings);
  };
  const passes = proof?.holdings.filter((h) => BOOKING_KINDS.has(h.kind)) ?? [];
  const credits = proof?.holdings.filter((h) => !BOOKING_KINDS.has(h.kind)) ?? [];

  const error = (id: string) => local[id] || errors[id];
  const described = (id: string, key: string) =>
    error(key) ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
  const alert = (id: string, key: string) =>
    error(key) ? (
      <p className="field-error" id={`${id}-error`} role="alert">
        {error(key)}
      </p>
    ) : null;

  return (
    <section className="checkout-points" aria-labelledby="points-title">
      <h2 id="points-title">{PM.pointsTitle}</h2>
      {stage === 'verified' && proof ? (
        <div className="field">
          {proof.holdings.length > 0 ? (
            <ul className="holdings" aria-label="What you hold here">
              {proof.holdings.map((h) => (
                <li key={h.holding_id}>
                  {h.label}: {h.balance_text}
                  {h.expires_at
                    ? ` (until ${formatDate(h.expires_at, browserTimeZone())})`
                    : ''}
                </li>
              ))}
            </ul>
          ) : null}
          {passes.length > 0 ? (
            <label className="check">
              <input
                type="checkbox"
                checked={cover}
                onChange={(e) => toggle('cover', (e.target as HTMLInputElement).checked)}
              />
              Book with my membership or class pack
            </label>
          ) : null}
          {alert('cover_booking', 'cover_booking')}
          {credits.length > 0 ? (
            <label className="check">
              <input
                type="checkbox"
                checked={money}
                onChange={(e) => toggle('money', (e.target as HTMLInputElement).checked)}
              />
              Pay with my gift cards and store credit
            </label>
          ) : null}
          {alert('use_wallet_money', 'use_wallet_money')}
          {forBooking && proof.points > 0 ? (
            <>
              <p>You have {pointsWithValue(proof.points)}.</p>
              <label htmlFor="redeem_points">Points to use</label>
              <input
                id="redeem_points"
                type="number"
                inputMode="numeric"
                min={0}
                max={proof.points}
                step={1}
                value={amount}
                onInput={(e) => {
                  const text = (e.target as HTMLInputElement).value;
                  setAmount(text);
                  choose(text);
                }}
                aria-describedby={
                  error('redeem_points') || error('points_token')
                    ? 'redeem_points-error'
                    : 'redeem_points-max'
                }
                {...(error('redeem_points') || error('points_token') ? { 'aria-invalid': true } : {})}
              />
              <p className="hint" id="redeem_points-max">
                Up to {proof.points.toLocaleString('en-US')} (100 points = $1.00)
              </p>
              {alert('redeem_points', 'redeem_points') ?? alert('redeem_points', 'points_token')}
            </>
          ) : null}
          {proof.points === 0 && proof.holdings.length === 0 ? <p>Nothing to use here yet.</p> : null}
          {!(forBooking && proof.points > 0) ? alert('points_token', 'points_token') : null}
          {errors.points_token ? (
            <button
              type="button"
              className="button secondary"
              onClick={() => {
                setStage('start');
                setProof(null);
                setCode('');
                setAmount('');
                onChoose(null);
              }}
            >
              Ask for a new code
            </button>
          ) : null}
        </div>
      ) : (
        <>
          <p>
            Have points, a class pack, a membership, a gift card or store credit here? We can email you a code
            to use them.
          </p>
          <button type="button" className="button secondary" disabled={busy} onClick={() => void send()}>
            Send me a code
          </button>
          {alert('points_email', 'points_email')}
          {stage === 'sent' ? (
            <div className="field">
              {sent ? <p role="status">{sent}</p> : null}
              <label htmlFor="points_code">Email code</label>
              <div className="inline">
                <input
                  id="points_code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  value={code}
                  onInput={(e) => setCode((e.target as HTMLInputElement).value)}
                  {...described('points_code', 'points_code')}
                />
                <button
                  type="button"
                  className="button secondary"
                  disabled={busy}
                  onClick={() => void check()}
                >
                  Check code
                </button>
              </div>
              {alert('points_code', 'points_code')}
            </div>
          ) : null}
          {alert('points_token', 'points_token')}
        </>
      )}
    </section>
  );
}
