import type { CalendarItem } from '@studio/contracts';

/**
 * THE read of the admin's calendar (issue 22): the organization's sessions, one item per session
 * day, and its appointments that are not cancelled, overlapping [from, to) (half-open), filtered by
 * instructor and by location, ordered by start, in one statement. It joins, read-only, the course
 * (activity), instructor and location of the catalog module and the student of the students module
 * (an appointment's title is the student's name); seats taken are counted by the seat rule's rows
 * (active enrollments with their guests, live seat holds).
 *
 * Parameters: organizationId, from, to and the optional filters, per half.
 */
export function calendarQuery(input: {
  organizationId: string;
  from: Date;
  to: Date;
  instructorId?: string;
  locationId?: string;
}): { sql: string; params: unknown[] } {
  const { organizationId, from, to, instructorId, locationId } = input;
  const filters = (alias: string) => {
    const parts: string[] = [];
    const params: unknown[] = [];
    if (instructorId) {
      parts.push(`${alias}.instructor_id = ?`);
      params.push(instructorId);
    }
    if (locationId) {
      parts.push(`${alias}.location_id = ?`);
      params.push(locationId);
    }
    return { sql: parts.map((p) => ` and ${p}`).join(''), params };
  };
  const sessions = filters('e');
  const appointments = filters('ap');
  return {
    sql: `select 'session' as kind, e.id, e.activity_id, a.name as course_name, e.name as title,
                 d.starts_at, d.ends_at, e.instructor_id,
                 nullif(trim(coalesce(i.first_name, '') || ' ' || coalesce(i.last_name, '')), '') as instructor_name,
                 e.location_id, l.name as location_name, l.timezone as time_zone, e.status,
                 coalesce(t.seats, 0) as seats_taken, e.capacity
            from event e
            join event_day d on d.event_id = e.id
            join activity a on a.id = e.activity_id
            join location l on l.id = e.location_id
            left join instructor i on i.id = e.instructor_id
            cross join lateral (
              select sum(x.seats) as seats from (
                select 1 + en.guest_count as seats from enrollment en where en.event_id = e.id and en.status = 'active'
                union all
                select h.seats from seat_hold h
                 where h.event_id = e.id and h.released_at is null and h.expires_at > clock_timestamp()
              ) x
            ) t
           where e.organization_id = ? and e.status = 'active'
             and d.starts_at < ? and d.ends_at > ?${sessions.sql}
          union all
          select 'appointment' as kind, ap.id, ap.activity_id, a.name as course_name,
                 trim(s.first_name || ' ' || s.last_name) as title,
                 ap.starts_at, ap.ends_at, ap.instructor_id,
                 nullif(trim(coalesce(i.first_name, '') || ' ' || coalesce(i.last_name, '')), '') as instructor_name,
                 ap.location_id, l.name as location_name, l.timezone as time_zone, ap.status,
                 null as seats_taken, null as capacity
            from appointment ap
            join activity a on a.id = ap.activity_id
            join location l on l.id = ap.location_id
            join student s on s.id = ap.student_id
            left join instructor i on i.id = ap.instructor_id
           where ap.organization_id = ? and ap.status <> 'cancelled'
             and ap.starts_at < ? and ap.ends_at > ?${appointments.sql}
           order by starts_at, ends_at, kind, id`,
    params: [organizationId, to, from, ...sessions.params, organizationId, to, from, ...appointments.params],
  };
}

/**
 * The calendar's scope, in one statement of this file: the organization's zone (the default zone the
 * page shows), and whether the instructor and location filters are the organization's (read-only,
 * from the organizations and catalog modules' tables). Parameters: instructorId twice, locationId
 * twice (null when unset), organizationId.
 */
export function calendarScopeQuery(input: { organizationId: string; instructorId?: string; locationId?: string }): { sql: string; params: unknown[] } {
  const instructor = input.instructorId ?? null;
  const location = input.locationId ?? null;
  return {
    sql: `select o.timezone,
                 (?::uuid is null or exists (select 1 from instructor i where i.id = ?::uuid and i.organization_id = o.id)) as instructor_found,
                 (?::uuid is null or exists (select 1 from location l where l.id = ?::uuid and l.organization_id = o.id)) as location_found
            from organization o where o.id = ?`,
    params: [instructor, instructor, location, location, input.organizationId],
  };
}

export interface CalendarScopeRow {
  timezone: string;
  instructor_found: boolean;
  location_found: boolean;
}

export interface CalendarRow {
  kind: 'session' | 'appointment';
  id: string;
  activity_id: string;
  course_name: string;
  title: string;
  starts_at: Date | string;
  ends_at: Date | string;
  instructor_id: string | null;
  instructor_name: string | null;
  location_id: string;
  location_name: string;
  time_zone: string;
  status: string;
  seats_taken: number | string | null;
  capacity: number | null;
}

export function toCalendarItem(row: CalendarRow): CalendarItem {
  return {
    kind: row.kind,
    id: row.id,
    activity_id: row.activity_id,
    course_name: row.course_name,
    title: row.title,
    starts_at: new Date(row.starts_at).toISOString(),
    ends_at: new Date(row.ends_at).toISOString(),
    instructor_id: row.instructor_id,
    instructor_name: row.instructor_name,
    location_id: row.location_id,
    location_name: row.location_name,
    time_zone: row.time_zone,
    status: row.status,
    seats_taken: row.seats_taken === null ? null : Number(row.seats_taken),
    capacity: row.capacity === null ? null : Number(row.capacity),
  };
}
