import { dayjs, DATE_INPUT_FORMAT } from '../index';

describe('typed dates (issue 25)', () => {
  it('reads a date typed the way the picker shows it, and the other accepted shapes', () => {
    for (const text of ['Tue, Dec 15, 2026', 'Dec 15, 2026', '2026-12-15', '12/15/2026'])
      expect(
        DATE_INPUT_FORMAT.map((f) => dayjs(text, f, true))
          .find((d) => d.isValid())
          ?.format('YYYY-MM-DD'),
      ).toBe('2026-12-15');
  });

  it('still refuses what is not a date', () => {
    expect(dayjs('Tue, Dec 45, 2026', DATE_INPUT_FORMAT[0], true).isValid()).toBe(false);
    expect(dayjs('soon', DATE_INPUT_FORMAT[0], true).isValid()).toBe(false);
  });
});
