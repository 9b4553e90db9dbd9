import { formatInZone, isValidTimeZone, wallClockToUtc } from './time';

describe('time zones', () => {
  it('reads a wall-clock time in the given zone', () => {
    expect(wallClockToUtc('2026-07-01', '09:00', 'America/New_York')?.toISOString()).toBe('2026-07-01T13:00:00.000Z');
    expect(wallClockToUtc('2026-12-01', '09:00', 'America/New_York')?.toISOString()).toBe('2026-12-01T14:00:00.000Z');
  });

  it('keeps the typed time on both sides of a daylight-saving change', () => {
    const before = wallClockToUtc('2026-03-07', '09:00', 'America/New_York')!;
    const after = wallClockToUtc('2026-03-08', '09:00', 'America/New_York')!;
    expect(formatInZone(before, 'HH:mm', 'America/New_York')).toBe('09:00');
    expect(formatInZone(after, 'HH:mm', 'America/New_York')).toBe('09:00');
    expect(after.getTime() - before.getTime()).toBe(23 * 3600 * 1000);
  });

  it('refuses impossible dates', () => {
    expect(wallClockToUtc('2026-02-30', '09:00', 'UTC')).toBeNull();
    expect(wallClockToUtc('2026-02-01', '25:00', 'UTC')).toBeNull();
  });

  it('formats in a zone and says Invalid date on bad input', () => {
    expect(formatInZone('2026-07-01T13:00:00Z', 'MMM d, h:mm a', 'America/Los_Angeles')).toBe('Jul 1, 6:00 AM');
    expect(formatInZone('nonsense', 'MMM d', 'UTC')).toBe('Invalid date');
  });

  it('knows IANA zones', () => {
    expect(isValidTimeZone('Europe/Paris')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
  });
});
