import { INPUT_MESSAGES } from '../safe-input';
import {
  MAX_WALLET_AMOUNT,
  WALLET_KIND_UNIT,
  WALLET_KINDS,
  WALLET_MESSAGES,
  formatWalletAmount,
  walletAdjustFormSchema,
  walletAdjustSchema,
} from './wallet.schema';

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
