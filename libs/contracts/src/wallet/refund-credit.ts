import { z } from 'zod';
import { useName, useOutcomeText, CREDIT_MESSAGES, REFUND_DESTINATIONS } from './refund-credit-rules';
import type { WalletKind, WalletUnit } from './wallet.schema';

export * from './refund-credit-rules';

/** The refund_to field of every refund body: card unless said otherwise. */
export const refundToSchema = z
  .enum(REFUND_DESTINATIONS, { error: CREDIT_MESSAGES.refundToInvalid })
  .describe(
    "'card' (default): back to the card that paid; 'store_credit': added to the student's store credit at once, no provider call",
  );

/** What a quote says about the use that covered a booking: its holding, and whether cancelling now returns it. */
export const bookingUseSchema = z.object({
  holding_id: z.uuid(),
  kind: z.string().describe('membership or pack'),
  label: z.string(),
  unit: z.string().describe('credits or bookings'),
  amount: z.number().int().describe('what the booking used'),
  returned: z.boolean().describe('given back already'),
  returns: z.boolean().describe('whether this cancellation gives it back'),
  message: z.string().describe('"Your class credit is given back." or forfeited after the policy\'s limit'),
});
export type BookingUse = z.infer<typeof bookingUseSchema>;

/** A use of a booking as the quotes read it, from WalletService.useOfBooking. */
export interface BookingUseRow {
  holding_id: string;
  kind: WalletKind;
  label: string;
  unit: WalletUnit;
  amount: number;
  returned: boolean;
}

export function bookingUseOut(
  use: BookingUseRow | null,
  returns: boolean,
  policyId?: number,
): BookingUse | null {
  if (!use) return null;
  const gives = returns && !use.returned;
  return {
    ...use,
    returns: gives,
    message: use.returned
      ? `Your ${useName(use.unit)} was given back.`
      : useOutcomeText(use.unit, gives, policyId),
  };
}
