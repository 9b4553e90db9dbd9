import { attendanceOf, ATTENDANCE_LABELS } from './attendance';

describe('attendanceOf', () => {
  const endsAt = '2026-11-27T15:00:00.000Z';
  it('is checked in or not yet before the session ends', () => {
    const before = new Date('2026-11-27T14:59:59.000Z');
    expect(attendanceOf(null, endsAt, before)).toBe('not_checked_in');
    expect(attendanceOf('2026-11-27T14:00:00.000Z', endsAt, before)).toBe('checked_in');
  });
  it('is Checked in or No-show once the session has ended (at its end exactly)', () => {
    const at = new Date(endsAt);
    expect(attendanceOf(null, endsAt, at)).toBe('no_show');
    expect(ATTENDANCE_LABELS[attendanceOf(null, new Date(endsAt), at)]).toBe('No-show');
    expect(ATTENDANCE_LABELS[attendanceOf(new Date('2026-11-27T14:00:00.000Z'), endsAt, at)]).toBe('Checked in');
  });
});
