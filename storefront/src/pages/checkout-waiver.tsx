/* The checkout's waiver step: starting the signing, the framed signing page, and learning it is signed. */
import {
  STORE_WAIVER_MESSAGES as W,
  WAIVER_SIGNED_EVENT,
} from '@studio/contracts/src/storefront/store-waiver-messages';
import { useEffect, useRef, useState } from 'react';
import { store, storeAnswer, type StoreRefusal, type StoreResult } from '../store-call';

/** Where the step stands: signed, with the token the checkout carries (null before it is signed). */
export interface WaiverState {
  signed: boolean;
  token: string | null;
}

/** How often the page asks the store whether the framed signing is done (when no message came). */
export const WAIVER_POLL_MS = 3000;
/** The timers of the polling (a test drives them). */
export const waiverTimers = {
  every: (fn: () => void, ms: number) => setInterval(fn, ms) as unknown as number,
  stop: (id: number) => clearInterval(id),
};

/** A call to the store; a refusal rejects with an Error carrying the store's message. */
const call = <T,>(pending: Promise<StoreResult<T>>): Promise<T> =>
  storeAnswer(pending).catch((refusal: StoreRefusal) => {
    throw new Error(refusal.message);
  });

/**
 * The checkout's waiver step (issue 21, step 4), for a course that requires a waiver: the buyer
 * (named above) starts the signing, reads and signs the waiver in the framed signing page (the demo
 * page or DocuSeal's form), and the page learns it is signed from the frame's message (only from
 * the frame, at the signing page's origin, and then confirmed by the store) or, failing that, by
 * asking the store every few seconds. The store answers the same whatever the email: only a buyer
 * who proved the email (`proof`, the points code's token) and signed this waiver before has
 * nothing to sign.
 */
export function WaiverStep({
  slug,
  target,
  buyer,
  proof = null,
  onChange,
}: {
  /** The store's slug (its Storefront API). */
  slug: string;
  /** The session's (event_id) or the appointment course's (activity_id, issue 22) waiver. */
  target: { event_id: string } | { activity_id: string };
  buyer: { first_name: string; last_name: string; email: string };
  /** The proof of the buyer's email (points/verify's points_token), when they have one. */
  proof?: string | null;
  onChange: (state: WaiverState) => void;
}) {
  const [signingUrl, setSigningUrl] = useState<string | null>(null);
  const [token, setToken] = useState<string | null>(null);
  const [signed, setSigned] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);

  const start = async () => {
    setError(null);
    if (!buyer.first_name.trim() || !buyer.last_name.trim() || !buyer.email.trim()) {
      setError(W.needBuyer);
      return;
    }
    setBusy(true);
    try {
      const answer = await call(
        store.POST('/api/public/{slug}/waiver', {
          params: { path: { slug } },
          body: { ...target, ...buyer, ...(proof ? { points_token: proof } : {}) },
        }),
      );
      if (answer.signed) {
        setSigned(true);
        onChange({ signed: true, token: answer.waiver_token });
      } else {
        setSigningUrl(answer.signing_url);
        setToken(answer.waiver_token);
      }
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };

  // While the buyer signs: the frame's message, or the store asked every few seconds.
  useEffect(() => {
    if (!signingUrl || !token || signed) return undefined;
    let done = false;
    const check = async () => {
      try {
        const status = await call(
          store.GET('/api/public/{slug}/waiver/status', { params: { path: { slug }, query: { token } } }),
        );
        if (status.signed && !done) {
          done = true;
          setSigned(true);
          onChange({ signed: true, token });
        }
      } catch {
        // Asked again at the next tick.
      }
    };
    const origin = new URL(signingUrl, window.location.href).origin;
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow || event.origin !== origin) return;
      // The demo page names its message; DocuSeal's form posts its own: either way the store decides.
      const data = event.data as { type?: string } | null;
      if (
        data &&
        typeof data === 'object' &&
        data.type &&
        data.type !== WAIVER_SIGNED_EVENT &&
        !/complete/i.test(data.type)
      )
        return;
      void check();
    };
    window.addEventListener('message', onMessage);
    const timer = waiverTimers.every(() => void check(), WAIVER_POLL_MS);
    return () => {
      done = true;
      window.removeEventListener('message', onMessage);
      waiverTimers.stop(timer);
    };
  }, [signingUrl, token, signed, slug, onChange]);

  return (
    <section className="waiver-step" aria-labelledby="waiver-heading">
      <h2 id="waiver-heading">Waiver</h2>
      {signed ? (
        <p className="waiver-signed" role="status">
          {W.signed}
        </p>
      ) : signingUrl ? (
        <>
          <p>Read the waiver and sign it below. Payment opens once it is signed.</p>
          <iframe ref={frame} className="waiver-frame" title={W.frameTitle} src={signingUrl} />
        </>
      ) : (
        <>
          <p>This course requires a signed waiver. Read and sign it here before paying.</p>
          <button type="button" className="button secondary" onClick={() => void start()} disabled={busy}>
            {busy ? 'Opening the waiver…' : 'Read and sign the waiver'}
          </button>
        </>
      )}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
