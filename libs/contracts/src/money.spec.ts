import { centsToAmountText, formatCents, parseAmountToCents } from './money';

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
});
