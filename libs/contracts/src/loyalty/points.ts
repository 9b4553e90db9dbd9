/*
 * Points and their value, without zod (the store's pages use them in the browser): loyalty.schema.ts
 * re-exports them.
 */

/** Spec 000 §9: 100 loyalty points equal $1.00. */
export const POINTS_PER_DOLLAR = 100;

/** What a number of points is worth, in cents (whole cents, rounded down: 150 points = $1.50). */
export function pointsToCents(points: number): number {
  return Math.floor((points * 100) / POINTS_PER_DOLLAR);
}

/** How many points a number of cents buys (rounded down). */
export function centsToPoints(cents: number): number {
  return Math.floor((cents * POINTS_PER_DOLLAR) / 100);
}

/** "1,250 points ($12.50)". */
export function pointsWithValue(points: number): string {
  const value = pointsToCents(points) / 100;
  const dollars = value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${points.toLocaleString('en-US')} ${points === 1 ? 'point' : 'points'} ($${dollars})`;
}

/** The store checkout's points section and its refusals (part of CHECKOUT_MESSAGES). */
export const POINTS_MESSAGES = {
  pointsTitle: 'Use your points, passes and credit',
  pointsEmailFirst: 'Enter your email above first',
  pointsCodeSent: 'If this email has points, passes or credit here, we sent it a 6-digit code. It is valid for 10 minutes.',
  pointsCodeFormat: 'Enter the 6-digit code from the email',
  pointsCodeWrong: 'This code is wrong or has expired. Ask for a new code.',
  pointsTokenInvalid: 'Your points code has expired. Ask for a new code.',
  pointsTokenOtherEmail: 'Your points belong to another email address',
  pointsNeedCode: 'Check your email code to use points',
  pointsAmount: 'Points must be a whole number, 0 or more',
  pointsNotActive: 'Points cannot be used at this store now',
  pointsInsufficient: (balance: number) => `You have only ${balance.toLocaleString('en-US')} points`,
} as const;
