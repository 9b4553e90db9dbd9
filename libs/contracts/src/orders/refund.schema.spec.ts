import {
  REFUND_MESSAGES as M,
  partialRefundCents,
  refundBodySchema,
  removalRefundAmount,
  removeEnrollmentBodySchema,
} from './refund.schema';


describe('refund rules', () => {
  it.each([
    ['10', 1000],
    ['10.5', 1050],
    ['10.55', 1055],
    ['75', 7500],
    ['0.01', 1],
  ])('a partial amount %s is %i cents', (text, cents) => expect(partialRefundCents(text, 7500)).toBe(cents));

  it.each(['', '0', '0.00', '10.555', '1e3', '-1', '75.01', 'abc', '$10', '1,000'])('a partial amount %p disables the button', (text) =>
    expect(partialRefundCents(text, 7500)).toBeNull(),
  );

  it('the remove-student amount: non-zero, at most what can be refunded', () => {
    expect(removalRefundAmount('22.50', 4500)).toEqual({ cents: 2250 });
    expect(removalRefundAmount('0', 4500)).toEqual({ error: M.amountNonZero });
    expect(removalRefundAmount('x', 4500)).toEqual({ error: M.amountNonZero });
    expect(removalRefundAmount('45.01', 4500)).toEqual({ error: 'Refund amount cannot exceed the original amount of $45.00' });
  });

  it('bounds the bodies', () => {
    expect(refundBodySchema.safeParse({}).success).toBe(true);
    expect(refundBodySchema.safeParse({ amount: 100, reason: 'Moved' }).success).toBe(true);
    for (const amount of [0, 1.5, -1, 100_000_001, '5']) expect(refundBodySchema.safeParse({ amount }).success).toBe(false);
    expect(refundBodySchema.safeParse({ reason: 'x'.repeat(501) }).success).toBe(false);
    expect(refundBodySchema.safeParse({ reason: 'a\u0000b' }).success).toBe(false);
    expect(removeEnrollmentBodySchema.safeParse({}).success).toBe(true);
    expect(removeEnrollmentBodySchema.safeParse({ refund: { amount: 100, reason: 'Other' } }).success).toBe(true);
    expect(removeEnrollmentBodySchema.safeParse({ refund: { amount: 100, reason: ' ' } }).success).toBe(false);
    expect(removeEnrollmentBodySchema.safeParse({ refund: { amount: 0, reason: 'Other' } }).success).toBe(false);
  });
});
