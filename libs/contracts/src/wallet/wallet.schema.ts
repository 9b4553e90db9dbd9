import { z } from 'zod';
import { formatCents, parseAmountToCents } from '../money';
import { safeText } from '../safe-input';
import { materialOf } from '../catalog/catalog-constants';
import { GIFT_CARD_MESSAGES } from './gift-card';

/*
 * The wallet (issue 24, "One ledger"): what a student holds that pays for bookings or orders, and
 * the one ledger of every change to it. A holding is one membership, class pack, gift card or the
 * student's store credit; its balance is always the sum of its ledger rows (the last row's
 * balance_after), never below zero.
 */

/** What a student may hold. */
export const WALLET_KINDS = ['membership', 'pack', 'gift_card', 'store_credit'] as const;
export type WalletKind = (typeof WALLET_KINDS)[number];

/** What a holding's balance counts. */
export const WALLET_UNITS = ['bookings', 'credits', 'cents'] as const;
export type WalletUnit = (typeof WALLET_UNITS)[number];

/** Each kind counts in one unit: a membership in bookings, a pack in credits, money in cents. */
export const WALLET_KIND_UNIT: Record<WalletKind, WalletUnit> = {
  membership: 'bookings',
  pack: 'credits',
  gift_card: 'cents',
  store_credit: 'cents',
};

export const WALLET_KIND_LABELS: Record<WalletKind, string> = {
  membership: 'Membership',
  pack: 'Class pack',
  gift_card: 'Gift card',
  store_credit: 'Store credit',
};

/**
 * Why a balance changed: granted (bought, given, refunded to credit), used (a booking or an order),
 * a use given back (a cancellation inside the policy), what was left expired, or adjusted by an owner.
 */
export const WALLET_REASONS = ['grant', 'use', 'return', 'expire', 'adjust'] as const;
export type WalletReason = (typeof WALLET_REASONS)[number];

export const WALLET_REASON_LABELS: Record<WalletReason, string> = {
  grant: 'Granted',
  use: 'Used',
  return: 'Given back',
  expire: 'Expired',
  adjust: 'Adjusted by an admin',
};

/** A holding is active until it expires (what was left is zeroed by an `expire` row). */
export const WALLET_HOLDING_STATUSES = ['active', 'expired'] as const;
export type WalletHoldingStatus = (typeof WALLET_HOLDING_STATUSES)[number];

/** The largest change one row may make (credits, bookings or cents): a bound so no column overflows. */
export const MAX_WALLET_AMOUNT = 100_000_000;
/** The longest adjustment reason or holding label. */
export const MAX_WALLET_NOTE_LENGTH = 500;
export const MAX_WALLET_LABEL_LENGTH = 200;

/** How many ledger rows GET …/wallet answers, newest first. */
export const WALLET_ENTRIES_SHOWN = 20;

export const WALLET_MESSAGES = {
  notEnough: {
    credits: 'Not enough credits left.',
    bookings: 'Not enough bookings left.',
    cents: 'Not enough balance left.',
  } satisfies Record<WalletUnit, string>,
  expired: 'This holding has expired.',
  notStudents: "This holding is not the student's.",
  holdingNotFound: 'Holding not found',
  useNotFound: 'Use not found',
  reasonRequired: 'Adjusting needs a reason.',
  reasonTooLong: `The reason is at most ${MAX_WALLET_NOTE_LENGTH} characters.`,
  amountInvalid: 'The amount is a whole number other than 0.',
  amountTooLarge: `The amount is at most ${MAX_WALLET_AMOUNT.toLocaleString('en-US')}.`,
  belowZero: 'An adjustment cannot take the balance below zero.',
  grantAmountInvalid: 'A grant is a whole number above 0.',
  labelInvalid: `The label is 1 to ${MAX_WALLET_LABEL_LENGTH} characters.`,
  kindMismatch: 'A top-up must be of the same kind as the holding.',
  nothingCovers: 'Nothing you hold covers this booking now.',
  giftCardUnknown: 'This gift card code is not valid here.',
  giftCardEmpty: 'This gift card has nothing left to spend.',
  needsProof: 'Confirm your email with the code first to use what you hold.',
  coversCoursesOnly: 'Memberships and class packs cover course bookings only.',
  subscriptionByCard: GIFT_CARD_MESSAGES.subscriptionByCard,
  giftCardByCard: GIFT_CARD_MESSAGES.giftCardByCard,
  choiceInvalid: 'Choose yes or no.',
  adjusted: 'Balance adjusted',
  adjustFailed: 'Could not adjust the balance',
  amountText: 'Enter a whole number other than 0, with - to take away.',
  amountTextCents: 'Enter an amount other than 0 such as 12.50, with - to take away.',
} as const;

/** The signed change of an adjustment: a whole number other than 0, bounded. */
const adjustAmount = z
  .number({ error: WALLET_MESSAGES.amountInvalid })
  .int({ error: WALLET_MESSAGES.amountInvalid })
  .refine((n) => n !== 0, { error: WALLET_MESSAGES.amountInvalid })
  .refine((n) => Math.abs(n) <= MAX_WALLET_AMOUNT, { error: WALLET_MESSAGES.amountTooLarge });

/** The reason of an adjustment: required, not blank, no control characters, bounded (kept trimmed). */
export const walletReasonSchema = safeText({ error: WALLET_MESSAGES.reasonRequired })
  .trim()
  .min(1, { error: WALLET_MESSAGES.reasonRequired })
  .max(MAX_WALLET_NOTE_LENGTH, { error: WALLET_MESSAGES.reasonTooLong });

/** POST /api/admin/student/{student_id}/wallet/{holding_id}/adjust: the owner's signed change and why. */
export const walletAdjustSchema = z.strictObject({
  amount: adjustAmount.describe('the signed change, in the holding\'s unit (credits, bookings or cents)'),
  reason: walletReasonSchema.describe('why: shown in the ledger'),
});
export type WalletAdjust = z.infer<typeof walletAdjustSchema>;

/** One ledger row as the admin reads it. */
export const walletEntrySchema = z.object({
  entry_id: z.uuid(),
  holding_id: z.uuid(),
  amount: z.number().int().describe('the signed change: positive for a grant, a return or a raise'),
  balance_after: z.number().int().describe("the holding's balance after this row"),
  reason: z.enum(WALLET_REASONS),
  note: z.string().nullable().describe('the reason an admin gave, or a note of the change'),
  order_id: z.uuid().nullable(),
  enrollment_id: z.uuid().nullable(),
  appointment_id: z.uuid().nullable(),
  actor: z.string().nullable().describe("the admin's name, or null for the store or the system"),
  created_at: z.string(),
});
export type WalletEntry = z.infer<typeof walletEntrySchema>;

/** One holding with its balance now. */
export const walletHoldingSchema = z.object({
  holding_id: z.uuid(),
  kind: z.enum(WALLET_KINDS),
  label: z.string(),
  unit: z.enum(WALLET_UNITS),
  balance: z.number().int().describe("the sum of the holding's ledger rows"),
  status: z.enum(WALLET_HOLDING_STATUSES),
  expires_at: z.string().nullable(),
  product_id: z.uuid().nullable(),
  order_id: z.uuid().nullable(),
  created_at: z.string(),
  unlimited: z.boolean().describe('an unlimited membership: its balance reads "Unlimited"'),
  covers_activity_ids: z.array(z.uuid()).nullable().describe('the courses a membership or pack covers; null: all (or by category)'),
  covers_category_ids: z.array(z.number().int()).nullable().describe('the course categories it covers; null: all (or by course)'),
});
export type WalletHolding = z.infer<typeof walletHoldingSchema>;

/** GET /api/admin/student/{student_id}/wallet: the holdings (newest first) and the newest ledger rows. */
export const walletSchema = z.object({
  holdings: z.array(walletHoldingSchema),
  entries: z.array(walletEntrySchema).describe(`the newest ${WALLET_ENTRIES_SHOWN} ledger rows, newest first`),
});
export type Wallet = z.infer<typeof walletSchema>;

/** A holding's balance or a row's change as the admin reads it: "3 credits", "1 booking", "$12.50". */
export function formatWalletAmount(amount: number, unit: WalletUnit): string {
  if (unit === 'cents') return formatCents(amount);
  const word = unit === 'credits' ? 'credit' : 'booking';
  return `${amount.toLocaleString('en-US')} ${word}${Math.abs(amount) === 1 ? '' : 's'}`;
}

/** What the Adjust dialog holds: the signed change as typed (dollars for money) and the reason. */
export type WalletAdjustFormInput = { amount: string; reason: string };

/**
 * The Adjust dialog's rules: the change as typed (a signed whole number of credits or bookings, or
 * a signed dollar amount for money, sent as cents), then the API's own rules (walletAdjustSchema).
 */
export function walletAdjustFormSchema(unit: WalletUnit) {
  const message = unit === 'cents' ? WALLET_MESSAGES.amountTextCents : WALLET_MESSAGES.amountText;
  return z
    .object({
      amount: z.string({ error: message }).transform((text, ctx) => {
        const trimmed = text.trim();
        const negative = trimmed.startsWith('-');
        const magnitude = negative ? trimmed.slice(1).trim() : trimmed.replace(/^\+/, '');
        const value = unit === 'cents' ? parseAmountToCents(magnitude) : /^\d+$/.test(magnitude) ? Number(magnitude) : null;
        if (value === null || value === 0) {
          ctx.addIssue({ code: 'custom', message });
          return z.NEVER;
        }
        return negative ? -value : value;
      }),
      reason: z.string(),
    })
    .pipe(walletAdjustSchema);
}

/*
 * What a holding covers and the order it is applied in (issue 24, "At the store"). Each rule lives
 * here once: the store's quote and checkout, the admin's Add student and the tests use them.
 */

/** An unlimited membership is granted this many bookings a period: its balance reads "Unlimited". */
export const UNLIMITED_BOOKINGS = 1_000_000;

/** The written order a booking or an order is paid in: membership, then pack, then gift card or credit, then card. */
export const WALLET_APPLY_ORDER: readonly WalletKind[] = ['membership', 'pack', 'gift_card', 'store_credit'];

/** What a holding may pay for, as the store and Add student read it. */
export interface CoveringHolding {
  holding_id: string;
  kind: WalletKind;
  balance: number;
  status: WalletHoldingStatus;
  expires_at: string | null;
  /** Courses (activity ids) a membership or pack covers; null for all courses. */
  covers_activity_ids: string[] | null;
  /** Course categories (material ids) it covers; null for all. A course is covered when either list names it. */
  covers_category_ids: number[] | null;
  created_at: string;
}

/** Whether a membership or pack covers a course: no list covers all; otherwise its course or its category is named. */
export function holdingCoversCourse(
  holding: Pick<CoveringHolding, 'covers_activity_ids' | 'covers_category_ids'>,
  course: { activity_id: string; category_id: number | null },
): boolean {
  const activities = holding.covers_activity_ids;
  const categories = holding.covers_category_ids;
  if (!activities?.length && !categories?.length) return true;
  return Boolean(activities?.includes(course.activity_id) || (course.category_id !== null && categories?.includes(course.category_id)));
}

/** Usable at `now`: active, not expired, something left. */
export function holdingUsable(h: Pick<CoveringHolding, 'status' | 'expires_at' | 'balance'>, now: Date): boolean {
  return h.status === 'active' && h.balance > 0 && (h.expires_at === null || new Date(h.expires_at) > now);
}

/** A holding's balance as a student or an admin reads it: "Unlimited" for an unlimited membership. */
export function formatHoldingBalance(h: { balance: number; unit: WalletUnit; unlimited?: boolean }): string {
  return h.unlimited ? 'Unlimited' : formatWalletAmount(h.balance, h.unit);
}

/**
 * What a membership or pack covers, in words: "All courses", or the courses' names and the
 * categories' ("Wheel throwing, Ceramics courses"). Unknown course ids (a course since deleted)
 * are left out.
 */
export function describeCoverage(
  covers: { covers_activity_ids: string[] | null; covers_category_ids: number[] | null },
  courseNames: ReadonlyMap<string, string> | Record<string, string>,
): string {
  const name = (id: string) => (courseNames instanceof Map ? courseNames.get(id) : (courseNames as Record<string, string>)[id]);
  const courses = (covers.covers_activity_ids ?? []).map(name).filter((n): n is string => Boolean(n));
  const categories = (covers.covers_category_ids ?? []).map(materialOf).filter((m): m is NonNullable<typeof m> => Boolean(m));
  const parts = [...courses, ...(categories.length ? [`${categories.join(', ')} courses`] : [])];
  if (!covers.covers_activity_ids?.length && !covers.covers_category_ids?.length) return 'All courses';
  return parts.length ? parts.join(', ') : 'No current course';
}

export * from './gift-card';
