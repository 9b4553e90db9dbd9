/**
 * A waitlist offer's claim in the checkout (issue 23): the claim link's token is checked with the
 * store, and an offer still open fills the party it holds seats for and its buyer (name and email
 * as offered). 'failed': the store could not say (the page says the offer has ended).
 */
import { useEffect, useState } from 'react';
import type { WaitlistClaim } from '@studio/contracts';
import { store, storeAnswer } from '../store-call';

export type ClaimState = WaitlistClaim | 'failed' | null;

type Buyer = { first_name: string; last_name: string; email: string };

/** The buyer an offer names: its first word the first name, the rest the last. */
export function buyerOfOffer(claim: { name: string; email: string }): Buyer {
  const [first, ...rest] = claim.name.trim().split(/\s+/);
  return { first_name: first ?? '', last_name: rest.join(' '), email: claim.email };
}

export function useWaitlistClaim(
  slug: string,
  claimToken: string | null,
  setParty: (party: number) => void,
  setBuyer: (buyer: Buyer) => void,
): ClaimState {
  const [claim, setClaim] = useState<ClaimState>(null);
  useEffect(() => {
    if (!claimToken) return;
    storeAnswer(
      store.GET('/api/public/{slug}/waitlist/claim', { params: { path: { slug }, query: { token: claimToken } } }),
    )
      .then((answer) => {
        setClaim(answer);
        if (answer.status !== 'offered') return;
        setParty(answer.party_size);
        setBuyer(buyerOfOffer(answer));
      })
      .catch(() => setClaim('failed'));
  }, [slug, claimToken, setParty, setBuyer]);
  return claim;
}
