import { WEEKDAYS, closedAvailability, type Weekday } from '@studio/contracts';

/** One range of hours as the form holds it: 'HH:mm' start and end. */
export interface RangeValues {
  start: string;
  end: string;
}

/** Bookable hours as the editor holds them: every weekday present (empty = closed), and the dates. */
export interface AvailabilityValues {
  weekly: Record<Weekday, RangeValues[]>;
  overrides: { date: string; ranges: RangeValues[] }[];
}

/** The form the editor works in: the hours under `availability` (null: the course uses its instructor's). */
export interface AvailabilityFormValues {
  availability: AvailabilityValues;
}

interface StoredAvailability {
  weekly?: Partial<Record<Weekday, readonly RangeValues[]>>;
  overrides?: readonly { date: string; ranges: readonly RangeValues[] }[];
}

/** Hours as read from the API (a missing day is closed) turned into the editor's values, as copies. */
export function toAvailabilityValues(stored: StoredAvailability | null | undefined): AvailabilityValues {
  const values = closedAvailability();
  for (const day of WEEKDAYS)
    values.weekly[day] = (stored?.weekly?.[day] ?? []).map((r) => ({ start: r.start, end: r.end }));
  values.overrides = (stored?.overrides ?? []).map((o) => ({
    date: o.date,
    ranges: o.ranges.map((r) => ({ start: r.start, end: r.end })),
  }));
  return values;
}

/** What an appointment course gets when its own hours are turned on: weekdays 09:00–17:00. */
export function weekdayHours(): AvailabilityValues {
  const values = closedAvailability();
  for (const day of ['mon', 'tue', 'wed', 'thu', 'fri'] as const)
    values.weekly[day] = [{ start: '09:00', end: '17:00' }];
  return values;
}

/** True when the hours open at least one day or one date. */
export function hasHours(values: AvailabilityValues): boolean {
  return (
    WEEKDAYS.some((day) => values.weekly[day].length > 0) || values.overrides.some((o) => o.ranges.length > 0)
  );
}
