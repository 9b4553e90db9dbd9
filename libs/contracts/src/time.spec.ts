import {
  formatDate,
  formatDateTime,
  formatDuration,
  formatInSpecPattern,
  formatInZone,
  formatTime,
  formatTimeZone,
  formatZonedDateTime,
  SPEC_DATE_PATTERNS,
  formatWallDate,
  formatWallTime,
  isValidTimeZone,
  wallClockToUtc,
  zoneAbbreviation,
} from './time';

describe('time zones', () => {
  it('reads a wall-clock time in the given zone', () => {
    expect(wallClockToUtc('2026-07-01', '09:00', 'America/New_York')?.toISOString()).toBe(
      '2026-07-01T13:00:00.000Z',
    );
    expect(wallClockToUtc('2026-12-01', '09:00', 'America/New_York')?.toISOString()).toBe(
      '2026-12-01T14:00:00.000Z',
    );
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
    expect(formatInZone('2026-07-01T13:00:00Z', 'MMM d, h:mm a', 'America/Los_Angeles')).toBe(
      'Jul 1, 6:00 AM',
    );
    expect(formatInZone('nonsense', 'MMM d', 'UTC')).toBe('Invalid date');
  });

  it('knows IANA zones', () => {
    expect(isValidTimeZone('Europe/Paris')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('how dates, times and durations read on every screen', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  // 6:00 PM in New York on Tuesday, Nov 24, 2026 (EST, UTC-5).
  const tuesdayEvening = '2026-11-24T23:00:00Z';

  it('writes a date and time as "Tue, Nov 24, 2026 6:00 PM", with the year only when it is not the current one', () => {
    expect(
      formatDateTime(tuesdayEvening, 'America/New_York', { now: new Date('2025-06-01T00:00:00Z') }),
    ).toBe('Tue, Nov 24, 2026 6:00 PM');
    expect(formatDateTime(tuesdayEvening, 'America/New_York', { now })).toBe('Tue, Nov 24 6:00 PM');
    expect(formatDateTime('2027-01-05T15:30:00Z', 'America/New_York', { now })).toBe(
      'Tue, Jan 5, 2027 10:30 AM',
    );
  });

  it('reads the instant in the given zone, so the day and the hour are the location’s', () => {
    expect(formatDateTime(tuesdayEvening, 'Europe/Paris', { now })).toBe('Wed, Nov 25 12:00 AM');
    expect(formatDateTime(tuesdayEvening, 'America/Los_Angeles', { now })).toBe('Tue, Nov 24 3:00 PM');
    expect(formatDate(tuesdayEvening, 'Europe/Paris', { now })).toBe('Wed, Nov 25');
  });

  it('names the zone only where it differs from the admin’s', () => {
    const paris = '2026-11-24T17:00:00Z';
    expect(formatDateTime(paris, 'Europe/Paris', { now, viewerZones: ['America/New_York'] })).toBe(
      'Tue, Nov 24 6:00 PM CET',
    );
    expect(formatDateTime(paris, 'Europe/Paris', { now, viewerZones: ['Europe/Paris'] })).toBe(
      'Tue, Nov 24 6:00 PM',
    );
    expect(formatTime(tuesdayEvening, 'America/New_York', { viewerZones: ['America/Los_Angeles'] })).toBe(
      '6:00 PM EST',
    );
    expect(
      formatTime('2026-07-01T22:00:00Z', 'America/New_York', {
        viewerZones: ['America/New_York', 'Europe/London'],
      }),
    ).toBe('6:00 PM EDT');
    // Toronto keeps New York's clock: nothing to warn about.
    expect(formatTime(tuesdayEvening, 'America/Toronto', { viewerZones: ['America/New_York'] })).toBe(
      '6:00 PM',
    );
    expect(
      formatTime(tuesdayEvening, 'America/New_York', { viewerZones: [null, undefined, 'Not/AZone'] }),
    ).toBe('6:00 PM');
  });

  it('names the zone always where a student reads it (mails, store pages), in the same shape (issue 25)', () => {
    expect(formatZonedDateTime(tuesdayEvening, 'America/New_York', { now })).toBe('Tue, Nov 24 6:00 PM EST');
    expect(formatZonedDateTime('2026-11-25T03:29:00Z', 'UTC', { now })).toBe('Wed, Nov 25 3:29 AM UTC');
    expect(formatZonedDateTime('nope', 'UTC')).toBe('Invalid date');
  });

  it("keeps the spec's own patterns for the screens it names, the zone named when it differs (issue 25)", () => {
    expect(formatInSpecPattern(tuesdayEvening, SPEC_DATE_PATTERNS.orderRow, 'America/New_York')).toBe('Nov 24, 6:00 PM');
    expect(
      formatInSpecPattern(tuesdayEvening, SPEC_DATE_PATTERNS.orderRow, 'America/New_York', {
        viewerZones: ['America/Los_Angeles'],
      }),
    ).toBe('Nov 24, 6:00 PM EST');
    // A date alone names no zone.
    expect(
      formatInSpecPattern(tuesdayEvening, SPEC_DATE_PATTERNS.firstSeen, 'America/New_York', {
        viewerZones: ['Europe/Paris'],
      }),
    ).toBe('24 Nov, 2026');
    expect(formatInSpecPattern('', SPEC_DATE_PATTERNS.sessionStart, 'UTC')).toBe('Invalid date');
  });

  it('writes a time zone the same way on every screen, the value unchanged', () => {
    expect(formatTimeZone('America/Los_Angeles')).toBe('America/Los Angeles');
    expect(formatTimeZone('UTC')).toBe('UTC');
  });

  it('names zones without a common abbreviation by their offset', () => {
    expect(zoneAbbreviation('2026-11-24T17:00:00Z', 'Asia/Kathmandu')).toBe('GMT+5:45');
    expect(zoneAbbreviation('2026-07-01T17:00:00Z', 'Europe/Paris')).toBe('CEST');
  });

  it('uses the 12-hour clock everywhere, also for the wall-clock times schedules store', () => {
    expect(formatTime('2026-11-24T12:05:00Z', 'UTC')).toBe('12:05 PM');
    expect(formatTime('2026-11-24T00:30:00Z', 'UTC')).toBe('12:30 AM');
    expect(formatWallTime('18:00')).toBe('6:00 PM');
    expect(formatWallTime('09:15')).toBe('9:15 AM');
    expect(formatWallTime('00:00')).toBe('12:00 AM');
    expect(formatWallTime('12:00')).toBe('12:00 PM');
    expect(formatWallTime('24:00')).toBe('');
    expect(formatWallTime('soon')).toBe('');
  });

  it('writes a stored calendar date with its weekday, the year only when it is not the current one', () => {
    expect(formatWallDate('2026-04-02', { now })).toBe('Thu, Apr 2');
    expect(formatWallDate('2027-04-02', { now })).toBe('Fri, Apr 2, 2027');
    expect(formatWallDate('2026-02-30', { now })).toBe('Invalid date');
  });

  it('says Invalid date on bad input (spec 001 §8)', () => {
    expect(formatDateTime('nonsense', 'UTC')).toBe('Invalid date');
    expect(formatDate(Number.NaN, 'UTC')).toBe('Invalid date');
    expect(formatTime('', 'UTC')).toBe('Invalid date');
  });

  it('writes durations as "1 hour" and "1 h 30 min"', () => {
    expect(formatDuration(60)).toBe('1 hour');
    expect(formatDuration(120)).toBe('2 hours');
    expect(formatDuration(90)).toBe('1 h 30 min');
    expect(formatDuration(30)).toBe('30 min');
    expect(formatDuration(0)).toBe('0 min');
    expect(formatDuration(24 * 60)).toBe('1 day');
    expect(formatDuration(7 * 24 * 60)).toBe('1 week');
    expect(formatDuration(9 * 24 * 60)).toBe('1 week 2 days');
    expect(formatDuration(24 * 60 + 135)).toBe('1 day 2 h 15 min');
    expect(formatDuration(-5)).toBe('');
  });
});
