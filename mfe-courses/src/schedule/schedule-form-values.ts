import {
  DEFAULT_TIMEZONE,
  NEW_DAY_DEFAULTS,
  START_TIME_OPTIONS,
  SCHEDULE_DURATION_OPTIONS_MINS,
  centsToAmountText,
  defaultScheduleRows,
  formatInZone,
  type EventScheduleFormInput,
} from '@studio/contracts';
import type { ScheduleCourse } from './schedule.api';

export type ScheduleFormInput = EventScheduleFormInput;

/** One day row as the form holds it: blank strings/null until the admin fills them. */
export interface DayRow {
  date: string;
  time: string;
  duration: number | null;
}

export interface ScheduleDefaults {
  values: ScheduleFormInput;
  /** Shown when the price override / capacity toggles are turned on. */
  coursePriceText: string;
  courseCapacity: number;
  daysApart: number;
  timezone: string;
}

const knownTime = (time: string | undefined) =>
  time && START_TIME_OPTIONS.some((o) => o.value === time) ? time : NEW_DAY_DEFAULTS.time;
const knownDuration = (mins: number | undefined) =>
  mins && SCHEDULE_DURATION_OPTIONS_MINS.includes(mins) ? mins : NEW_DAY_DEFAULTS.duration;

/** Tomorrow in the location's zone: a session is scheduled ahead, never in the past hour of today. */
export function firstDateIn(zone: string, now: Date = new Date()): string {
  return formatInZone(new Date(now.getTime() + 24 * 3600 * 1000), 'yyyy-MM-dd', zone);
}

/** The drawer's starting values from the course's defaults (spec 001 §9). */
export function courseToScheduleDefaults(course: ScheduleCourse, now: Date = new Date()): ScheduleDefaults {
  const timezone = course.Location?.timezone?.timeZoneId || DEFAULT_TIMEZONE;
  const daysApart = Math.max(1, course.default_days_apart || 1);
  const dates = defaultScheduleRows(firstDateIn(timezone, now), {
    days: course.default_days || 1,
    daysApart,
    time: knownTime(course.default_start_time),
    duration: knownDuration(course.default_daily_mins),
  });
  return {
    values: {
      activity_id: course.activity_id,
      dates,
      location_id: course.location_id,
      instructor_id: course.instructor_id,
      sync_with_eventbrite: false,
      course_name: course.name,
      override_price: false,
      price: '',
      set_capacity: false,
      capacity: '',
      internal_short_description: '',
    },
    // A free course has no price to start an override from.
    coursePriceText: course.prices?.[0]?.unit_price ? centsToAmountText(course.prices[0].unit_price) : '',
    courseCapacity: course.capacity,
    daysApart,
    timezone,
  };
}

/** A day added by hand: the next date after the last one (spaced by days-apart), 09:00 for 60 min. */
export function nextDayRow(rows: { date?: unknown }[], daysApart: number, zone: string): DayRow {
  const last = rows.at(-1)?.date;
  const date =
    typeof last === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(last)
      ? defaultScheduleRows(last, { days: 2, daysApart })[1].date
      : firstDateIn(zone);
  return { date, time: NEW_DAY_DEFAULTS.time, duration: NEW_DAY_DEFAULTS.duration };
}

/** The wall-clock end of a day row ("10:30 AM"), or '' when the row is incomplete. */
export function endTimeLabel(time: unknown, duration: unknown): string {
  if (typeof time !== 'string' || typeof duration !== 'number') return '';
  const [h, m] = time.split(':').map(Number);
  if (Number.isNaN(h) || Number.isNaN(m)) return '';
  const total = (h * 60 + m + duration) % (24 * 60);
  const hh = Math.floor(total / 60);
  const mm = total % 60;
  const days = Math.floor((h * 60 + m + duration) / (24 * 60));
  const label = `${hh % 12 === 0 ? 12 : hh % 12}:${String(mm).padStart(2, '0')} ${hh < 12 ? 'AM' : 'PM'}`;
  return days > 0 ? `${label} (+${days}d)` : label;
}
