import { INPUT_MESSAGES } from '../safe-input';
import { MAX_WALLET_AMOUNT, WALLET_KIND_UNIT, WALLET_KINDS, WALLET_MESSAGES, walletAdjustSchema } from './wallet.schema';

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
