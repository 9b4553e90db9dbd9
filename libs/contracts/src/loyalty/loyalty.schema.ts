import { z } from 'zod';
import { formatCents } from '../money';

/** Spec 000 §9: 100 loyalty points equal $1.00. */
export const POINTS_PER_DOLLAR = 100;

/** The programme's unit (spec 000 §3, Loyalty program: status, unit). */
export const LOYALTY_UNIT = 'points';

export const LOYALTY_STATUSES = ['active', 'disabled'] as const;
export type LoyaltyStatus = (typeof LOYALTY_STATUSES)[number];

export const LOYALTY_MESSAGES = {
  /** The rule shown on the Loyalty settings page. */
  rule: `${POINTS_PER_DOLLAR} points = ${formatCents(100)}`,
  enabled: 'Loyalty program enabled',
  disabled: 'Loyalty program disabled',
  saveFailed: 'Failed to update the loyalty program',
  loadFailed: 'Could not load the loyalty program',
} as const;

/** GET /api/admin/loyalty-program: an organization with no programme reads as disabled. */
export const loyaltyProgramSchema = z.object({
  status: z.enum(LOYALTY_STATUSES),
  unit: z.literal(LOYALTY_UNIT),
});
export type LoyaltyProgram = z.infer<typeof loyaltyProgramSchema>;

/** PUT /api/admin/loyalty-program: the owner turns the programme on or off. */
export const loyaltyProgramUpdateSchema = z.strictObject({
  status: z.enum(LOYALTY_STATUSES),
});
export type LoyaltyProgramUpdate = z.infer<typeof loyaltyProgramUpdateSchema>;

/** What a number of points is worth, in cents (whole cents, rounded down: 150 points = $1.50). */
export function pointsToCents(points: number): number {
  return Math.floor((points * 100) / POINTS_PER_DOLLAR);
}

/** How many points a number of cents buys (rounded down). */
export function centsToPoints(cents: number): number {
  return Math.floor((cents * POINTS_PER_DOLLAR) / 100);
}
