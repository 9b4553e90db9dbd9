import { POINTS_MESSAGES as PM, pointsWithValue } from '@studio/contracts/src/loyalty/points';
import { useState } from 'react';

/** The points the buyer chose to spend, with the proof of their email (points/verify). */
export interface PointsChoice {
  token: string;
  points: number;
}

type Post = <T>(url: string, body: unknown) => Promise<T>;
interface Refusal {
  message: string;
  errors?: Record<string, string>;
}

/**
 * "Use your points" (issue 21, step 6): the buyer asks for a code mailed to the email typed above,
 * types it, sees the balance and picks how many points to spend (100 points = $1.00). The store
 * checks it all again; its refusals of the points (`errors`) show under the points field.
 */
export function PointsSection({
  api,
  email,
  errors,
  post,
  onChoose,
}: {
  api: string;
  email: string;
  errors: Record<string, string>;
  post: Post;
  onChoose: (choice: PointsChoice | null) => void;
}) {
  const [stage, setStage] = useState<'start' | 'sent' | 'verified'>('start');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [proof, setProof] = useState<{ token: string; points: number } | null>(null);
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
      const answer = await post<{ message: string }>(`${api}/points/code`, { email: email.trim() });
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
      const answer = await post<{ points_token: string; points: number }>(`${api}/points/verify`, {
        email: email.trim(),
        code: code.trim(),
      });
      setProof({ token: answer.points_token, points: answer.points });
      setStage('verified');
      onChoose({ token: answer.points_token, points: 0 });
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
    onChoose({ token: proof.token, points });
  };

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
              error('redeem_points') || error('points_token') ? 'redeem_points-error' : 'redeem_points-max'
            }
            {...(error('redeem_points') || error('points_token') ? { 'aria-invalid': true } : {})}
          />
          <p className="hint" id="redeem_points-max">
            Up to {proof.points.toLocaleString('en-US')} (100 points = $1.00)
          </p>
          {alert('redeem_points', 'redeem_points') ?? alert('redeem_points', 'points_token')}
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
          <p>Have points here? We can email you a code to use them.</p>
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
