import { useEffect, useMemo, useState } from 'react';
import {
  APPOINTMENT_UI_MESSAGES,
  formatInZone,
  formatTime,
  wallClockToUtc,
  zoneAbbreviation,
} from '@studio/contracts';
import {
  DATE_INPUT_FORMAT,
  DatePicker,
  Flex,
  Radio,
  Skeleton,
  Typography,
  WALL_DATE_FORMAT,
  dayjs,
  useQuery,
  type Dayjs,
} from '@studio/ui';
import { slotsQuery } from './appointment.api';

export interface SlotPickerProps {
  activityId: string;
  /** The course location's IANA zone: days and times are read in it. */
  zone: string;
  /** The course's booking window (days ahead a time may be booked). */
  windowDays: number;
  /** The picked start (an ISO instant), or ''. */
  value: string;
  onChange: (startsAt: string) => void;
  /** A start not to offer (the appointment's own time when moving it). */
  exclude?: string;
  /** The day shown first (yyyy-MM-dd in the zone; Move opens on the appointment's day); else the first with a free time. */
  initialDay?: string;
  status?: 'error';
  /** The day input's id (its form label's target). */
  id?: string;
}

const MONTH = 'YYYY-MM';

/** [from, to) of a month's free times: from its first midnight (or now) to the next month's, in the zone. */
function monthRange(month: string, zone: string, now: Date): { from: string; to: string } | null {
  const first = `${month}-01`;
  const next = dayjs(first, WALL_DATE_FORMAT).add(1, 'month').format(WALL_DATE_FORMAT);
  const start = wallClockToUtc(first, '00:00', zone);
  const end = wallClockToUtc(next, '00:00', zone);
  if (!start || !end || end <= now) return null;
  return { from: (start < now ? now : start).toISOString(), to: end.toISOString() };
}

/**
 * A day (a month calendar limited to the booking window, days without a free time greyed out) and a
 * free time of that day, from the admin slots call, in the location's zone (named when it differs
 * from the admin's). A time taken meanwhile disappears when the list reloads.
 */
export function SlotPicker({
  activityId,
  zone,
  windowDays,
  value,
  onChange,
  exclude,
  initialDay,
  status,
  id,
}: SlotPickerProps) {
  const [now] = useState(() => new Date());
  const today = formatInZone(now, 'yyyy-MM-dd', zone);
  const lastDay = dayjs(today, WALL_DATE_FORMAT).add(windowDays, 'day').format(WALL_DATE_FORMAT);
  const startDay = initialDay && initialDay >= today && initialDay <= lastDay ? initialDay : null;
  const [month, setMonth] = useState(() => (startDay ?? today).slice(0, 7));
  const [day, setDay] = useState<string | null>(startDay);
  const range = monthRange(month, zone, now);
  const slots = useQuery({
    ...slotsQuery(activityId, range?.from ?? '', range?.to ?? ''),
    enabled: Boolean(range),
  });

  const byDay = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const d of slots.data?.days ?? []) {
      const free = d.slots.filter((s) => !exclude || new Date(s).getTime() !== new Date(exclude).getTime());
      if (free.length) map.set(d.date, free);
    }
    return map;
  }, [slots.data, exclude]);

  // The first day with a free time is picked when none is (the admin changes it if another suits);
  // a month with none left (its last days) moves on to the next one within the window.
  useEffect(() => {
    if (day || !slots.isSuccess) return;
    if (byDay.size) setDay([...byDay.keys()][0]!);
    else {
      const next = dayjs(`${month}-01`, WALL_DATE_FORMAT).add(1, 'month').format(WALL_DATE_FORMAT);
      if (next <= lastDay) setMonth(next.slice(0, 7));
    }
  }, [day, byDay, slots.isSuccess, month, lastDay]);

  const times = useMemo(() => (day ? (byDay.get(day) ?? []) : []), [day, byDay]);
  // A picked time no longer offered (taken meanwhile, the list reloaded) is dropped.
  useEffect(() => {
    if (
      value &&
      slots.isSuccess &&
      day &&
      !times.some((t) => new Date(t).getTime() === new Date(value).getTime())
    )
      onChange('');
  }, [value, slots.isSuccess, day, times, onChange]);

  const disabledDate = (d: Dayjs) => {
    const wall = d.format(WALL_DATE_FORMAT);
    if (wall < today || wall > lastDay) return true;
    // Another month's days show greyed until that month is shown (and its times asked for).
    return wall.slice(0, 7) === month && !byDay.has(wall);
  };

  return (
    <Flex vertical gap={8}>
      <DatePicker
        id={id}
        aria-label="Day"
        format={DATE_INPUT_FORMAT}
        status={status}
        allowClear={false}
        value={day ? dayjs(day, WALL_DATE_FORMAT) : null}
        disabledDate={disabledDate}
        onPanelChange={(d) => setMonth(d.format(MONTH))}
        onOpenChange={(open) => {
          if (open && day) setMonth(day.slice(0, 7));
        }}
        onChange={(d) => {
          if (!d) return;
          setDay(d.format(WALL_DATE_FORMAT));
          setMonth(d.format(MONTH));
          onChange('');
        }}
      />
      {slots.isPending && range ? (
        <Skeleton active title={false} paragraph={{ rows: 1 }} />
      ) : slots.isError ? (
        <Typography.Text type="danger">Could not load the free times.</Typography.Text>
      ) : day && !times.length ? (
        <Typography.Text type="secondary">{APPOINTMENT_UI_MESSAGES.noTimes}</Typography.Text>
      ) : day ? (
        <Radio.Group
          aria-label="Time"
          optionType="button"
          value={times.find((t) => value && new Date(t).getTime() === new Date(value).getTime()) ?? null}
          onChange={(e) => onChange(e.target.value as string)}
          // The zone is named once, under the times.
          options={times.map((t) => ({ value: t, label: formatTime(t, zone) }))}
          style={{ display: 'flex', flexWrap: 'wrap', gap: 4 }}
        />
      ) : null}
      <Typography.Text type="secondary">
        Times in {zone} ({zoneAbbreviation(now, zone)}).
      </Typography.Text>
    </Flex>
  );
}
