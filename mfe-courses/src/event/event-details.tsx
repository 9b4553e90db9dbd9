import { formatCents, formatDuration, formatWallDate, formatWallTime } from '@studio/contracts';
import { Descriptions, useDateFormat } from '@studio/ui';
import type { EventDetail } from '../api/events';

/** Event Details section: when, where, who, price and seats, in the location's time zone. */
export function EventDetails({ event, timezone }: { event: EventDetail; timezone: string }) {
  const days = event.schedule ?? [];
  const dates = useDateFormat();
  return (
    <Descriptions
      column={1}
      size="small"
      items={[
        {
          key: 'dates',
          label: days.length > 1 ? 'Days' : 'Date',
          children: (
            <div>
              {days.map((day, i) => (
                <div key={`${day.start_date}-${i}`}>
                  {formatWallDate(day.start_date, { zone: timezone })} {formatWallTime(day.start_time)} ·{' '}
                  {formatDuration(day.duration)}
                </div>
              ))}
            </div>
          ),
        },
        {
          key: 'starts',
          label: 'Starts',
          children: dates.dateTime(event.starts_at, timezone),
        },
        { key: 'location', label: 'Location', children: event.Location?.address ?? '' },
        { key: 'instructor', label: 'Instructor', children: event.Instructor?.first_name ?? '' },
        { key: 'price', label: 'Price', children: formatCents(event.price) },
        { key: 'seats', label: 'Seats taken', children: `${event.seats_taken} / ${event.capacity}` },
        { key: 'enrolled', label: 'Enrolled', children: String(event.enrolled_count) },
        ...(event.internal_short_description
          ? [{ key: 'internal', label: 'Internal description', children: event.internal_short_description }]
          : []),
      ]}
    />
  );
}
