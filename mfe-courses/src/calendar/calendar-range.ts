import { formatInZone, wallClockToUtc, type CalendarView } from '@studio/contracts';
import { WALL_DATE_FORMAT, dayjs } from '@studio/ui';

/** The days a view shows (wall dates, yyyy-MM-dd): the week from its Monday, or the one day. */
export function viewDays(view: CalendarView, anchor: string): string[] {
  const day = dayjs(anchor, WALL_DATE_FORMAT);
  if (view === 'day') return [anchor];
  const monday = day.subtract((day.day() + 6) % 7, 'day');
  return Array.from({ length: 7 }, (_, i) => monday.add(i, 'day').format(WALL_DATE_FORMAT));
}

/** [from, to) of the view's days, from the first day's midnight to the midnight after the last, in the zone. */
export function viewRange(view: CalendarView, anchor: string, zone: string): { from: string; to: string } {
  const days = viewDays(view, anchor);
  const after = dayjs(days[days.length - 1], WALL_DATE_FORMAT)
    .add(1, 'day')
    .format(WALL_DATE_FORMAT);
  return {
    // The days are well-formed wall dates: the zone's midnight always exists (a change at midnight moves it).
    from: wallClockToUtc(days[0]!, '00:00', zone)!.toISOString(),
    to: wallClockToUtc(after, '00:00', zone)!.toISOString(),
  };
}

/** The anchor one view earlier or later (a week, or a day). */
export function shiftAnchor(view: CalendarView, anchor: string, step: -1 | 1): string {
  return dayjs(anchor, WALL_DATE_FORMAT)
    .add(step * (view === 'week' ? 7 : 1), 'day')
    .format(WALL_DATE_FORMAT);
}

/** Today's wall date in the zone. */
export const todayIn = (zone: string, now: Date = new Date()) => formatInZone(now, 'yyyy-MM-dd', zone);

/** The wall date an instant starts on, in the zone. */
export const dayOf = (instant: string, zone: string) => formatInZone(instant, 'yyyy-MM-dd', zone);
