import { INPUT_MESSAGES } from '../safe-input';
import {
  MAX_WALLET_AMOUNT,
  WALLET_KIND_UNIT,
  WALLET_KINDS,
  WALLET_MESSAGES,
  formatWalletAmount,
  formatHoldingBalance,
  holdingCoversCourse,
  UNLIMITED_BOOKINGS,
  type CoveringHolding,
  walletAdjustFormSchema,
  walletAdjustSchema,
  formatGiftCardCode,
  GIFT_CARD_CODE_ALPHABET,
  GIFT_CARD_MESSAGES,
  giftCardCodeFromBytes,
  giftRecipientErrors,
  normalizeGiftCardCode,
} from './wallet.schema';
import { planWalletPayment } from './wallet-booking';

/** The first message the adjust schema gives for a body, or null when it takes it. */
function messageOf(body: unknown): string | null {
  const result = walletAdjustSchema.safeParse(body);
  return result.success ? null : result.error.issues[0].message;
}

describe('wallet rules (issue 24)', () => {
  it('each kind counts in its one unit', () => {
    expect(WALLET_KINDS.map((k) => [k, WALLET_KIND_UNIT[k]])).toEqual([
      ['membership', 'bookings'],
      ['pack', 'credits'],
      ['gift_card', 'cents'],
      ['store_credit', 'cents'],
    ]);
  });

  it('says what is short in the unit of the holding', () => {
    expect(WALLET_MESSAGES.notEnough.credits).toBe('Not enough credits left.');
    expect(WALLET_MESSAGES.expired).toBe('This holding has expired.');
    expect(WALLET_MESSAGES.reasonRequired).toBe('Adjusting needs a reason.');
  });

  it('takes a signed whole amount with a reason, and keeps the reason trimmed', () => {
    expect(walletAdjustSchema.parse({ amount: -3, reason: '  Late cancel  ' })).toEqual({ amount: -3, reason: 'Late cancel' });
    expect(messageOf({ amount: MAX_WALLET_AMOUNT, reason: 'Top' })).toBeNull();
    expect(messageOf({ amount: -MAX_WALLET_AMOUNT, reason: 'Bottom' })).toBeNull();
  });

  it.each([
    [{ amount: 1 }, WALLET_MESSAGES.reasonRequired],
    [{ amount: 1, reason: '' }, WALLET_MESSAGES.reasonRequired],
    [{ amount: 1, reason: '   ' }, WALLET_MESSAGES.reasonRequired],
    [{ amount: 1, reason: null }, WALLET_MESSAGES.reasonRequired],
    [{ amount: 1, reason: 'a'.repeat(501) }, WALLET_MESSAGES.reasonTooLong],
    [{ amount: 1, reason: 'tab\there' }, INPUT_MESSAGES.controlCharacters],
    [{ amount: 0, reason: 'Zero' }, WALLET_MESSAGES.amountInvalid],
    [{ amount: 2.5, reason: 'Half' }, WALLET_MESSAGES.amountInvalid],
    [{ amount: '3', reason: 'Text' }, WALLET_MESSAGES.amountInvalid],
    [{ reason: 'No amount' }, WALLET_MESSAGES.amountInvalid],
    [{ amount: MAX_WALLET_AMOUNT + 1, reason: 'Huge' }, WALLET_MESSAGES.amountTooLarge],
    [{ amount: -MAX_WALLET_AMOUNT - 1, reason: 'Huge' }, WALLET_MESSAGES.amountTooLarge],
  ])('refuses %j: %s', (body, message) => {
    expect(messageOf(body)).toBe(message);
  });

  it('refuses fields it does not know', () => {
    expect(walletAdjustSchema.safeParse({ amount: 1, reason: 'x', balance: 5 }).success).toBe(false);
  });
});

describe('the Adjust dialog (issue 24)', () => {
  const parse = (unit: 'credits' | 'cents', amount: string, reason = 'Why') => walletAdjustFormSchema(unit).safeParse({ amount, reason });

  it('sends credits as typed and dollars as cents, with the sign', () => {
    expect(parse('credits', '3').data).toEqual({ amount: 3, reason: 'Why' });
    expect(parse('credits', ' -2 ').data).toEqual({ amount: -2, reason: 'Why' });
    expect(parse('cents', '12.50').data).toEqual({ amount: 1250, reason: 'Why' });
    expect(parse('cents', '-$5').data).toEqual({ amount: -500, reason: 'Why' });
  });

  it.each([
    ['credits', '0', WALLET_MESSAGES.amountText],
    ['credits', '1.5', WALLET_MESSAGES.amountText],
    ['credits', '', WALLET_MESSAGES.amountText],
    ['cents', 'abc', WALLET_MESSAGES.amountTextCents],
    ['cents', '0.00', WALLET_MESSAGES.amountTextCents],
  ] as const)('refuses %s %j: %s', (unit, amount, message) => {
    expect(parse(unit, amount).error?.issues[0].message).toBe(message);
  });

  it('needs a reason, as the API does', () => {
    expect(parse('credits', '1', ' ').error?.issues[0].message).toBe(WALLET_MESSAGES.reasonRequired);
  });

  it('reads amounts in their unit', () => {
    expect(formatWalletAmount(3, 'credits')).toBe('3 credits');
    expect(formatWalletAmount(1, 'bookings')).toBe('1 booking');
    expect(formatWalletAmount(-1, 'credits')).toBe('-1 credit');
    expect(formatWalletAmount(1250, 'cents')).toBe('$12.50');
  });
});

describe('what pays a booking, in the written order (issue 24)', () => {
  const now = new Date('2026-12-01T12:00:00Z');
  const yoga = { activity_id: 'a-yoga', category_id: 3 };
  let n = 0;
  const holding = (kind: CoveringHolding['kind'], balance: number, more: Partial<CoveringHolding> = {}): CoveringHolding => ({
    holding_id: `h${++n}`,
    kind,
    balance,
    status: 'active',
    expires_at: null,
    covers_activity_ids: null,
    covers_category_ids: null,
    created_at: '2026-11-01T00:00:00Z',
    ...more,
  });
  const plan = (holdings: CoveringHolding[], total = 5000, party = 1, course: typeof yoga | null = yoga) =>
    planWalletPayment({ holdings, course, party_size: party, total_cents: total, now });

  it('a membership first, then a pack, then gift cards and credit, then the card', () => {
    const m = holding('membership', 4);
    const p = holding('pack', 5);
    const g = holding('gift_card', 1000);
    const c = holding('store_credit', 1000);
    expect(plan([c, g, p, m]).booking).toEqual({ holding_id: m.holding_id, kind: 'membership', amount: 1 });
    expect(plan([c, g, p])).toEqual({ booking: { holding_id: p.holding_id, kind: 'pack', amount: 1 }, money: [], due_cents: 0 });
    expect(plan([c, g])).toEqual({
      booking: null,
      money: [
        { holding_id: g.holding_id, kind: 'gift_card', cents: 1000 },
        { holding_id: c.holding_id, kind: 'store_credit', cents: 1000 },
      ],
      due_cents: 3000,
    });
    expect(plan([])).toEqual({ booking: null, money: [], due_cents: 5000 });
  });

  it('a gift card pays part and keeps the rest', () => {
    const g = holding('gift_card', 8000);
    expect(plan([g], 2500)).toEqual({ booking: null, money: [{ holding_id: g.holding_id, kind: 'gift_card', cents: 2500 }], due_cents: 0 });
  });

  it('covers only the courses or categories it names', () => {
    expect(holdingCoversCourse({ covers_activity_ids: null, covers_category_ids: null }, yoga)).toBe(true);
    expect(holdingCoversCourse({ covers_activity_ids: ['a-yoga'], covers_category_ids: null }, yoga)).toBe(true);
    expect(holdingCoversCourse({ covers_activity_ids: null, covers_category_ids: [3] }, yoga)).toBe(true);
    expect(holdingCoversCourse({ covers_activity_ids: ['a-other'], covers_category_ids: [4] }, yoga)).toBe(false);
    expect(plan([holding('membership', 3, { covers_activity_ids: ['a-other'] })]).booking).toBeNull();
  });

  it('skips what is expired, lapsed, empty or too small for the party', () => {
    expect(plan([holding('pack', 5, { expires_at: now.toISOString() })]).booking).toBeNull();
    expect(plan([holding('membership', 5, { status: 'expired' })]).booking).toBeNull();
    expect(plan([holding('pack', 0)]).booking).toBeNull();
    expect(plan([holding('pack', 2)], 5000, 3).booking).toBeNull();
    const p = holding('pack', 3);
    expect(plan([holding('membership', 9), p], 5000, 3).booking).toEqual({ holding_id: p.holding_id, kind: 'pack', amount: 3 });
  });

  it('uses the pack that expires soonest, and pays a product with money only', () => {
    const later = holding('pack', 5, { expires_at: '2027-06-01T00:00:00Z' });
    const sooner = holding('pack', 5, { expires_at: '2027-01-01T00:00:00Z' });
    expect(plan([later, sooner]).booking?.holding_id).toBe(sooner.holding_id);
    expect(plan([holding('membership', 5), holding('pack', 5)], 5000, 1, null)).toEqual({ booking: null, money: [], due_cents: 5000 });
  });

  it('reads an unlimited membership as Unlimited', () => {
    expect(formatHoldingBalance({ balance: UNLIMITED_BOOKINGS - 2, unit: 'bookings', unlimited: true })).toBe('Unlimited');
    expect(formatHoldingBalance({ balance: 2, unit: 'credits' })).toBe('2 credits');
  });
});

describe('gift card codes (issue 24)', () => {
  it('are 4 groups of 4 characters of an alphabet without look-alikes', () => {
    const bytes = Array.from({ length: 16 }, (_, i) => i * 17);
    const code = giftCardCodeFromBytes(bytes);
    expect(code).toMatch(/^[2-9A-HJ-NP-Z]{4}(-[2-9A-HJ-NP-Z]{4}){3}$/);
    expect(GIFT_CARD_CODE_ALPHABET).toHaveLength(32);
    expect(GIFT_CARD_CODE_ALPHABET).not.toMatch(/[01IO]/);
    expect(() => giftCardCodeFromBytes([1, 2, 3])).toThrow(RangeError);
  });

  it('a typed code is read whatever its case, dashes and spaces', () => {
    expect(normalizeGiftCardCode('7k3m-q9tx 4hbn-wd2r')).toBe('7K3MQ9TX4HBNWD2R');
    expect(normalizeGiftCardCode(' 7K3MQ9TX4HBNWD2R ')).toBe('7K3MQ9TX4HBNWD2R');
    expect(formatGiftCardCode('7k3mq9tx4hbnwd2r')).toBe('7K3M-Q9TX-4HBN-WD2R');
    expect(normalizeGiftCardCode('7K3M-Q9TX-4HBN-WD2')).toBeNull();
    expect(normalizeGiftCardCode('0K3M-Q9TX-4HBN-WD2R')).toBeNull();
    expect(normalizeGiftCardCode('x'.repeat(100))).toBeNull();
  });

  it("asks a gift card's buyer for the recipient, and nobody else", () => {
    expect(giftRecipientErrors(true, {})).toEqual({
      recipient_name: GIFT_CARD_MESSAGES.recipientNameRequired,
      recipient_email: GIFT_CARD_MESSAGES.recipientEmail,
    });
    expect(giftRecipientErrors(true, { recipient_name: 'Ana', recipient_email: 'ana@example.com' })).toEqual({});
    expect(giftRecipientErrors(false, {})).toEqual({});
  });
});
