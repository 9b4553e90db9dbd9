import { POLICY_IDS } from '../catalog/policies';
import { formatCents } from '../money';
import type { WalletUnit } from './wallet.schema';

/*
 * Refunds to store credit, and cancellations that give a membership or pack use back (issue 24,
 * "Store credit"; brief R). The destinations, the rule that splits a refund of an order paid partly
 * with wallet money, what a cancellation does with the use that covered a booking, and every message
 * the API, the dialogs and the manage page say. Each lives here once. No zod here: the storefront imports this file; the schemas are in refund-credit.ts.
 */

/** Where a refund goes: back to the card that paid, or to the student's store credit (no provider call). */
export const REFUND_DESTINATIONS = ['card', 'store_credit'] as const;
export type RefundDestination = (typeof REFUND_DESTINATIONS)[number];

/** The admin dialogs' choice and the manage page's buttons. */
export const REFUND_DESTINATION_LABELS: Record<RefundDestination, string> = {
  card: 'Refund to card',
  store_credit: 'Refund as store credit',
};
/** The manage page's buttons (the student's words). */
export const STUDENT_REFUND_DESTINATION_LABELS: Record<RefundDestination, string> = {
  card: 'Refund to my card',
  store_credit: 'Refund as store credit',
};

/** The label of the one store-credit holding a refund creates the first time. */
export const STORE_CREDIT_HOLDING_LABEL = 'Store credit';

export const CREDIT_MESSAGES = {
  refundToInvalid: 'Choose "card" or "store_credit".',
  /** The refunds list's status of a refund made to store credit. */
  storeCredit: 'Store credit',
  /** The toast of a refund to store credit. */
  refundedToCredit: 'Refunded as store credit',
  /** An order never charged by card can only go back as store credit, and only when wallet money paid it. */
  neverChargedCard: 'This order was paid with a gift card or store credit: refund it as store credit.',
  /** Remove student's owner-only choice. */
  keepUse: 'Keep the credit used',
  keepUseOwnerOnly: 'Only an owner can keep the credit used.',
  /** Session cancel: store credit needs no payment method, but a refund choice. */
  refundToNeedsRefund: 'Store credit goes with "Refund everyone in full".',
} as const;

/** What a use of a booking is called: a pack's class credit, a membership's booking. */
export const useName = (unit: WalletUnit | null | undefined) =>
  unit === 'bookings' ? 'membership booking' : 'class credit';

/** The last moment the policy gives everything back, as the manage page says it; null when it never does. */
export const FULL_REFUND_LIMIT: Record<number, string | null> = {
  [POLICY_IDS.flexible]: '1 day before start',
  [POLICY_IDS.moderate]: '5 days before start',
  [POLICY_IDS.firm]: '30 days before start',
  [POLICY_IDS.noSelfCancel]: null,
};

/**
 * What a cancellation does with the use (a pack's credit, a membership's booking) that covered the
 * booking: the student's own cancellation gives it back only inside the policy's full-refund window
 * (share 1), otherwise it is forfeited; the studio's session cancel always gives it back; an admin's
 * Remove student gives it back unless the owner chose to keep it.
 */
export function useReturns(
  by: { kind: 'student'; share: number } | { kind: 'session_cancel' } | { kind: 'admin'; keep_use?: boolean },
): boolean {
  if (by.kind === 'student') return by.share >= 1;
  if (by.kind === 'session_cancel') return true;
  return !by.keep_use;
}

/** The manage page's and the quotes' sentence about a use: given back, or forfeited after the policy's limit. */
export function useOutcomeText(
  unit: WalletUnit | null | undefined,
  returns: boolean,
  policyId?: number,
): string {
  const name = useName(unit);
  if (returns) return `Your ${name} is given back.`;
  const limit = policyId === undefined ? null : (FULL_REFUND_LIMIT[policyId] ?? null);
  return limit ? `Your ${name} is not given back after ${limit}.` : `Your ${name} is not given back.`;
}

/**
 * How a refund of `amount_cents` splits, for an order paid partly (or wholly) with gift-card or
 * store-credit money (uses with its order_id, `wallet_paid_cents` in all). The written rule:
 *
 * 1. Wallet money is refunded first: of what is left of it (wallet_paid minus what earlier refunds
 *    took, since they took it first too), this refund takes as much as it can (`wallet_cents`).
 * 2. When this one refund gives the whole order back (nothing refunded before, the amount is the
 *    total), each gift card or credit the order used gets its use back on its own holding
 *    (`return_uses`; an expired one goes to store credit instead). Otherwise the wallet part is
 *    added to the student's store credit (a partial refund cannot split a use).
 * 3. The rest goes where the refund was asked to go: the card (`to_card_cents`, the provider is
 *    asked for that much only) or store credit.
 *
 * `to_credit_cents` is everything added to the store credit (the rest when asked, plus the wallet
 * part when uses are not returned).
 */
export function refundSplit(input: {
  total_cents: number;
  refunded_cents: number;
  wallet_paid_cents: number;
  amount_cents: number;
  refund_to: RefundDestination;
}): { wallet_cents: number; return_uses: boolean; to_card_cents: number; to_credit_cents: number } {
  const walletLeft = Math.max(0, input.wallet_paid_cents - input.refunded_cents);
  const wallet = Math.max(0, Math.min(input.amount_cents, walletLeft));
  const returnUses = wallet > 0 && input.refunded_cents === 0 && input.amount_cents === input.total_cents;
  const rest = input.amount_cents - wallet;
  return {
    wallet_cents: wallet,
    return_uses: returnUses,
    to_card_cents: input.refund_to === 'card' ? rest : 0,
    to_credit_cents: (input.refund_to === 'store_credit' ? rest : 0) + (returnUses ? 0 : wallet),
  };
}

/** Where the money of a refund goes, as the quotes and the dialogs say it. */
export function refundDestinationText(split: ReturnType<typeof refundSplit>): string {
  const parts: string[] = [];
  if (split.to_card_cents > 0) parts.push(`${formatCents(split.to_card_cents)} back to the card`);
  if (split.return_uses && split.wallet_cents > 0)
    parts.push(`${formatCents(split.wallet_cents)} back to the gift card or credit it was paid with`);
  if (split.to_credit_cents > 0) parts.push(`${formatCents(split.to_credit_cents)} as store credit`);
  return parts.length ? `${parts.join(', ')}.` : 'Nothing is refunded.';
}
