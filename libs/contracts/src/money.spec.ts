import { centsToAmountText, formatCents, parseAmountToCents, splitTotal } from './money';

describe('money', () => {
  it.each([
    ['450', 45000],
    ['450.9', 45090],
    ['450.99', 45099],
    ['0.01', 1],
    ['$1,200.50', 120050],
    [' 12 ', 1200],
    [12.5, 1250],
  ])('reads %p as %p cents', (input, cents) => {
    expect(parseAmountToCents(input)).toBe(cents);
  });

  it.each(['', 'abc', '1.999', '-5', '1e3', '12.', '.5', null, undefined])('refuses %p', (input) => {
    expect(parseAmountToCents(input as string)).toBeNull();
  });

  it('never goes through floating point: 0.29 + 0.01 style amounts stay exact', () => {
    expect(parseAmountToCents('1.15')).toBe(115);
    expect(parseAmountToCents('4.35')).toBe(435);
  });

  it('shows cents as dollars', () => {
    expect(centsToAmountText(45099)).toBe('450.99');
    expect(formatCents(120050)).toBe('$1,200.50');
  });

  describe('splitTotal: a total over units as lines that sum to it', () => {
    const sum = (lines: { unitPriceCents: number; quantity: number }[]) => lines.reduce((t, l) => t + l.unitPriceCents * l.quantity, 0);
    it.each([
      [1000, 3, [{ unitPriceCents: 333, quantity: 2 }, { unitPriceCents: 334, quantity: 1 }]],
      [999, 3, [{ unitPriceCents: 333, quantity: 3 }]],
      [1001, 1, [{ unitPriceCents: 1001, quantity: 1 }]],
      [2, 3, [{ unitPriceCents: 0, quantity: 2 }, { unitPriceCents: 2, quantity: 1 }]],
      [0, 4, [{ unitPriceCents: 0, quantity: 4 }]],
    ])('%p cents over %p units', (total, quantity, lines) => {
      expect(splitTotal(total, quantity)).toEqual(lines);
      expect(sum(splitTotal(total, quantity))).toBe(total);
    });
    it('always sums to the total and counts every unit (every total up to $20 over 1 to 12 units)', () => {
      for (let total = 0; total <= 2000; total += 7)
        for (let quantity = 1; quantity <= 12; quantity++) {
          const lines = splitTotal(total, quantity);
          expect(sum(lines)).toBe(total);
          expect(lines.reduce((n, l) => n + l.quantity, 0)).toBe(quantity);
        }
    });
    it('refuses a negative or fractional total and a quantity below 1', () => {
      expect(() => splitTotal(-1, 1)).toThrow(RangeError);
      expect(() => splitTotal(1.5, 1)).toThrow(RangeError);
      expect(() => splitTotal(100, 0)).toThrow(RangeError);
    });
  });
});
