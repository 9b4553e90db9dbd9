/* An appointment course's calendar: the month's free days and times (asked of the store), and the chosen start. */
import type { PublicCourse } from '@studio/contracts';
import { browserTimeZone, formatTime, zoneAbbreviation } from '@studio/contracts/src/time';
import { zonesLine } from '@studio/contracts/src/storefront/store-rules';
import { useEffect, useRef, useState } from 'react';
import { appLinks, storeSlug } from '../links';
import { store, storeAnswer } from '../store-call';

/*
 * The booking calendar of an appointment course (issue 22): a month of days, those with a free
 * time as buttons, then the free times of the chosen day as buttons, in the visitor's zone (the
 * server renders the location's until the browser says its own). The slots come from the store's
 * slots call (its days already counted in the zone asked), so the page carries no slot engine.
 */

const DAY_MS = 86_400_000;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** 'yyyy-MM-dd' of an instant in a zone. */
export function dateInZone(instant: Date | number, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
    .formatToParts(instant)
    .reduce<Record<string, string>>((all, p) => ({ ...all, [p.type]: p.value }), {});
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** 'yyyy-MM' plus whole months. */
export function addMonths(month: string, count: number): string {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + count, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * The months a visitor may browse: from this month (in their zone) to the month of the last
 * bookable date (the booking window counted from today, a day of margin for the zones' difference).
 */
export function monthRange(now: Date, windowDays: number, zone: string): { first: string; last: string } {
  return {
    first: dateInZone(now, zone).slice(0, 7),
    last: dateInZone(now.getTime() + (windowDays + 1) * DAY_MS, zone).slice(0, 7),
  };
}

/** The weeks of a month, Sunday first: each a row of seven dates ('yyyy-MM-dd') or null outside the month. */
export function monthWeeks(month: string): (string | null)[][] {
  const [y, m] = month.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1, 1));
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const cells: (string | null)[] = Array.from({ length: first.getUTCDay() }, () => null);
  for (let d = 1; d <= days; d++) cells.push(`${month}-${String(d).padStart(2, '0')}`);
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
}

const monthTitle = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(y, m - 1, 1),
  );
};

/** "Tuesday, December 1, 2026". */
export const dayTitle = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(Date.UTC(y, m - 1, d));
};

interface Props {
  course: Pick<PublicCourse, 'activity_id' | 'name' | 'booking_window_days' | 'location'>;
  base: string;
  /** Tests: the clock and the browser's zone. */
  now?: Date;
  visitorZone?: string;
}

/** The month calendar, the chosen day's times, and Book for the chosen time. */
export function AppointmentCalendar({ course, base, now: fixedNow, visitorZone }: Props) {
  const studioZone = course.location.timezone;
  // The server renders the location's zone; the browser switches to its own once hydrated.
  const [zone, setZone] = useState(studioZone);
  const [now, setNow] = useState<Date | null>(fixedNow ?? null);
  useEffect(() => {
    setZone(visitorZone ?? browserTimeZone());
    setNow((n) => n ?? new Date());
  }, [visitorZone]);
  const range = now ? monthRange(now, course.booking_window_days ?? 60, zone) : null;
  const [month, setMonth] = useState<string | null>(null);
  const shown =
    month && range && month >= range.first && month <= range.last ? month : (range?.first ?? null);
  const [days, setDays] = useState<Map<string, string[]> | null>(null);
  const [failed, setFailed] = useState(false);
  const [day, setDay] = useState<string | null>(null);
  const [slot, setSlot] = useState<string | null>(null);
  const grid = useRef<HTMLTableElement>(null);

  useEffect(() => {
    if (!shown) return;
    let live = true;
    setDays(null);
    setFailed(false);
    const [y, m] = shown.split('-').map(Number);
    // A day around the month either side: the zone's days are cut from the answer by date.
    const from = new Date(Date.UTC(y, m - 1, 1) - DAY_MS).toISOString();
    const to = new Date(Date.UTC(y, m, 1) + DAY_MS).toISOString();
    storeAnswer(
      store.GET('/api/public/{slug}/activities/{activity_id}/slots', {
        params: { path: { slug: storeSlug(base), activity_id: course.activity_id }, query: { from, to, tz: zone } },
        headers: { accept: 'application/json' },
      }),
    )
      .then((answer) => {
        if (!live) return;
        const map = new Map<string, string[]>();
        for (const d of answer.days)
          if (d.date.startsWith(`${shown}-`) && d.slots.length) map.set(d.date, d.slots);
        setDays(map);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [shown, zone, base, course.activity_id]);

  const open = (date: string | null) => !!date && !!days?.get(date)?.length;
  const chooseDay = (date: string) => {
    setDay(date);
    setSlot(null);
  };
  const goMonth = (count: number) => {
    if (!shown) return;
    setMonth(addMonths(shown, count));
    setDay(null);
    setSlot(null);
  };

  /** Arrow keys move between the days that can be chosen (Home/End: the first and last of them). */
  const onKeyDown = (event: KeyboardEvent) => {
    if (!shown) return;
    const target = event.target as HTMLElement;
    const current = target.getAttribute('data-date');
    if (!current) return;
    const openDays = [...(days?.keys() ?? [])].sort();
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[event.key];
    let next: string | undefined;
    if (event.key === 'Home') next = openDays[0];
    else if (event.key === 'End') next = openDays[openDays.length - 1];
    else if (step) {
      const [y, m, d] = current.split('-').map(Number);
      const want = Date.UTC(y, m - 1, d) + step * DAY_MS;
      const candidates = step > 0 ? openDays : [...openDays].reverse();
      next = candidates.find((date) => {
        const [yy, mm, dd] = date.split('-').map(Number);
        const t = Date.UTC(yy, mm - 1, dd);
        return step > 0 ? t >= want : t <= want;
      });
    } else return;
    event.preventDefault();
    if (next) grid.current?.querySelector<HTMLButtonElement>(`button[data-date="${next}"]`)?.focus();
  };

  const line = zonesLine(zone, studioZone);
  const times = day ? (days?.get(day) ?? []) : [];
  const focusable = day && open(day) ? day : [...(days?.keys() ?? [])].sort()[0];
  const headingId = `calendar-${course.activity_id}`;

  return (
    <div className="appointment-calendar">
      {line ? <p className="zones-line">{line}</p> : null}
      {!shown || !range ? (
        <p>Loading times…</p>
      ) : (
        <>
          <div className="calendar-head">
            <button
              type="button"
              className="button secondary"
              onClick={() => goMonth(-1)}
              disabled={shown <= range.first}
              aria-label="Previous month"
            >
              ‹
            </button>
            <h3 id={headingId} aria-live="polite">
              {monthTitle(shown)}
            </h3>
            <button
              type="button"
              className="button secondary"
              onClick={() => goMonth(1)}
              disabled={shown >= range.last}
              aria-label="Next month"
            >
              ›
            </button>
          </div>
          <table
            className="calendar"
            role="grid"
            aria-labelledby={headingId}
            ref={grid}
            onKeyDown={onKeyDown}
          >
            <thead>
              <tr>
                {WEEKDAYS.map((name) => (
                  <th key={name} scope="col" abbr={name}>
                    {name.slice(0, 2)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {monthWeeks(shown).map((week, i) => (
                <tr key={i}>
                  {week.map((date, j) =>
                    date ? (
                      <td key={date} role="gridcell">
                        <button
                          type="button"
                          data-date={date}
                          className={day === date ? 'day chosen' : 'day'}
                          disabled={!open(date)}
                          aria-pressed={open(date) ? day === date : undefined}
                          aria-label={
                            open(date)
                              ? `${dayTitle(date)}, ${days!.get(date)!.length === 1 ? '1 time' : `${days!.get(date)!.length} times`} free`
                              : `${dayTitle(date)}, no free times`
                          }
                          tabIndex={date === focusable ? 0 : -1}
                          onClick={() => chooseDay(date)}
                        >
                          {Number(date.slice(8))}
                        </button>
                      </td>
                    ) : (
                      <td key={`empty-${j}`} />
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          {failed ? (
            <p role="alert">The free times could not be loaded. Please try again in a moment.</p>
          ) : days === null ? (
            <p role="status">Loading times…</p>
          ) : days.size === 0 ? (
            <p role="status">No free times in {monthTitle(shown)}.</p>
          ) : null}
        </>
      )}
      {day && times.length ? (
        <section className="calendar-times" aria-labelledby="times-heading">
          <h3 id="times-heading">Times on {dayTitle(day)}</h3>
          <ul className="times">
            {times.map((t) => (
              <li key={t}>
                <button
                  type="button"
                  className={slot === t ? 'time chosen' : 'time'}
                  aria-pressed={slot === t}
                  onClick={() => setSlot(t)}
                >
                  {formatTime(t, zone)} {zoneAbbreviation(t, zone)}
                </button>
              </li>
            ))}
          </ul>
          {slot ? (
            <a className="button" href={appLinks.checkoutAppointment(base, course.activity_id, slot)}>
              Book {formatTime(slot, zone)} {zoneAbbreviation(slot, zone)}
              <span className="visually-hidden">{`, ${dayTitle(day)}`}</span>
            </a>
          ) : (
            <p>Choose a time to book.</p>
          )}
        </section>
      ) : null}
    </div>
  );
}
