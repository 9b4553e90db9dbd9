/** One period during which an instructor cannot take an appointment. */
export interface BusyInterval {
  /** Inclusive. */
  start: Date;
  /** Exclusive (half-open: a period that starts at `end` does not overlap). */
  end: Date;
  /** An appointment (widened by its course's buffers) or a day of a scheduled session (as is). */
  source: 'appointment' | 'session';
  /** The appointment's id, or the session day's (event_day) id. */
  id: string;
}

export interface BusyIntervalRow {
  source: 'appointment' | 'session';
  id: string;
  starts_at: Date | string;
  ends_at: Date | string;
}

/**
 * THE read of an instructor's busy time in [from, to), in this one SQL statement (the slot engine
 * takes its answer as `busy`; the bench compares the engine with it):
 *
 * - every non-cancelled appointment of the instructor, of any course, as its stored `blocked`
 *   range (the appointment widened by its course's buffers when it was made), read through the
 *   exclusion constraint's own GiST index (instructor_id, blocked) where status <> 'cancelled';
 * - every day of the instructor's active scheduled sessions, widened by nothing (read through
 *   event_instructor_period_index, then the session's days).
 *
 * Both halves keep the intervals that overlap [from, to) (half-open on both sides), ordered by
 * start. Parameters: organizationId, instructorId, from, to (twice, once per half).
 */
export function busyIntervalsQuery(input: {
  organizationId: string;
  instructorId: string;
  from: Date;
  to: Date;
}): { sql: string; params: unknown[] } {
  const { organizationId, instructorId, from, to } = input;
  return {
    sql: `select 'appointment' as source, a.id, lower(a.blocked) as starts_at, upper(a.blocked) as ends_at
            from appointment a
           where a.organization_id = ? and a.instructor_id = ? and a.status <> 'cancelled'
             and a.blocked && tstzrange(?::timestamptz, ?::timestamptz, '[)')
          union all
          select 'session' as source, d.id, d.starts_at, d.ends_at
            from event e join event_day d on d.event_id = e.id
           where e.organization_id = ? and e.instructor_id = ? and e.status = 'active'
             and e.starts_at < ? and e.ends_at > ?
             and d.starts_at < ? and d.ends_at > ?
           order by starts_at, ends_at, id`,
    params: [organizationId, instructorId, from, to, organizationId, instructorId, to, from, to, from],
  };
}

export function toBusyInterval(row: BusyIntervalRow): BusyInterval {
  return { source: row.source, id: row.id, start: new Date(row.starts_at), end: new Date(row.ends_at) };
}
