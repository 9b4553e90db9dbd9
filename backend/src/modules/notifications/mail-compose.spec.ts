// The mail composition helper (issue 33): one-line text, subjects, and the calendar files of a session and an appointment.
import { wallClockToUtc } from '@studio/contracts';
import { calendarAttachment, calendarFile, mailSubject, oneLine } from './mail-compose';

/** The calendar file's lines without the stamp of when it was made. */
const lines = (ics: string) => ics.split(/\r?\n/).filter((l) => l && !l.startsWith('DTSTAMP'));

describe('oneLine', () => {
  it('puts a text typed over several lines on one, its ends trimmed', () => {
    expect(oneLine('  Yoga\r\nfor\n\nbeginners \n')).toBe('Yoga for beginners');
  });

  it('leaves a text already on one line as it is', () => {
    expect(oneLine('Pottery, Tuesday')).toBe('Pottery, Tuesday');
  });
});

describe('mailSubject', () => {
  it('puts each value on one line', () => {
    expect(mailSubject`You're booked: ${'Yoga\nflow '}`).toBe("You're booked: Yoga flow");
  });

  it('cuts the subject to the 300 characters a mail takes', () => {
    const subject = mailSubject`New time: ${'x'.repeat(400)}`;
    expect(subject).toHaveLength(300);
    expect(subject.startsWith('New time: xxx')).toBe(true);
  });
});

describe('calendarFile', () => {
  it("writes a session at 18:00 in its location's zone as that instant in UTC", () => {
    // 18:00 in New York on 15 December (EST, UTC-5) is 23:00 UTC.
    const startsAt = wallClockToUtc('2026-12-15', '18:00', 'America/New_York')!;
    const endsAt = wallClockToUtc('2026-12-15', '19:30', 'America/New_York')!;
    const ics = calendarFile({
      uid: 'order-1@studio',
      title: 'Evening yoga',
      startsAt,
      endsAt,
      location: 'Main studio, 1 Broadway',
      description: 'Sunrise Studio: order #12',
      organizer: 'Sunrise Studio',
    });
    expect(lines(ics)).toEqual(
      expect.arrayContaining([
        'METHOD:PUBLISH',
        'UID:order-1@studio',
        'SUMMARY:Evening yoga',
        'DTSTART:20261215T230000Z',
        'DTEND:20261216T003000Z',
        'LOCATION:Main studio\\, 1 Broadway',
        'DESCRIPTION:Sunrise Studio: order #12',
      ]),
    );
    // A booking's file has no sequence nor status: the first one the calendar gets.
    expect(ics).not.toMatch(/SEQUENCE|STATUS/);
  });

  it("writes an appointment in its location's zone across a daylight-saving change, with its sequence and status", () => {
    // 09:00 in Berlin on 30 March 2026 (CEST, UTC+2, the day after the change) is 07:00 UTC.
    const startsAt = wallClockToUtc('2026-03-30', '09:00', 'Europe/Berlin')!;
    const endsAt = wallClockToUtc('2026-03-30', '10:00', 'Europe/Berlin')!;
    const ics = calendarFile({
      uid: 'appointment-7@studio',
      sequence: 2,
      title: 'Private lesson',
      startsAt: startsAt.toISOString(),
      endsAt,
      location: 'Online: https://meet.example/abc',
      description: 'Sunrise Studio: Private lesson with Ana',
      organizer: 'Sunrise Studio',
      method: 'PUBLISH',
    });
    expect(lines(ics)).toEqual(
      expect.arrayContaining(['DTSTART:20260330T070000Z', 'DTEND:20260330T080000Z', 'SEQUENCE:2', 'STATUS:CONFIRMED']),
    );
  });

  it('cancels an appointment with the CANCEL method and status', () => {
    const ics = calendarFile({
      uid: 'appointment-7@studio',
      sequence: 3,
      title: 'Private lesson',
      startsAt: '2026-03-30T07:00:00.000Z',
      endsAt: '2026-03-30T08:00:00.000Z',
      location: 'Studio',
      description: 'd',
      organizer: 'Sunrise Studio',
      method: 'CANCEL',
    });
    expect(lines(ics)).toEqual(expect.arrayContaining(['METHOD:CANCEL', 'STATUS:CANCELLED', 'SEQUENCE:3']));
    expect(calendarAttachment(ics, 'appointment.ics', 'CANCEL')).toEqual({
      filename: 'appointment.ics',
      contentType: 'text/calendar; charset=utf-8; method=CANCEL',
      content: ics,
    });
  });

  it('keeps a long address to the 500 characters a location takes', () => {
    const ics = calendarFile({
      uid: 'u@studio',
      title: 't',
      startsAt: '2026-03-30T07:00:00.000Z',
      endsAt: '2026-03-30T08:00:00.000Z',
      location: 'a'.repeat(800),
      description: 'd',
      organizer: 'o',
    });
    const location = ics.replace(/\r?\n[ \t]/g, '').match(/LOCATION:(a+)/)![1];
    expect(location).toHaveLength(500);
  });
});
