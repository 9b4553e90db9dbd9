import type { EntityManager } from '@mikro-orm/postgresql';

export type BookingKind = 'enrollment' | 'appointment';

/**
 * A booking as its reminder needs it, read fresh when the job runs. Read-only joins of the
 * scheduling module's enrollment, event (session) and appointment, the catalog's course (activity)
 * and location, the student and the organization: one round trip. Nothing here writes another
 * module's table.
 */
export interface ReminderBookingRow {
  id: string;
  organization_id: string;
  student_id: string;
  student_first_name: string;
  student_email: string;
  /** Whether the booking still stands: the seat active in an active session, the appointment booked. */
  active: boolean;
  /** Why it does not, when it does not. */
  inactive_reason: string | null;
  starts_at: Date | string;
  course_name: string;
  /** The course's own text for its students (a session's reminder carries it). */
  course_text: string;
  time_zone: string;
  location_online: boolean;
  location_name: string;
  location_address: string | null;
  meeting_url: string | null;
  studio: string;
  reminder_offsets_mins: number[];
}

const ENROLLMENT = `
  select en.id, en.organization_id, en.student_id, s.first_name as student_first_name, s.email as student_email,
         (en.status = 'active' and ev.status = 'active') as active,
         case when en.status <> 'active' then 'The student was removed from the session'
              when ev.status <> 'active' then 'The session was cancelled' end as inactive_reason,
         ev.starts_at, a.name as course_name, a.auto_email as course_text,
         l.timezone as time_zone, l.online as location_online, l.name as location_name, l.address as location_address,
         ev.meeting_join_url as meeting_url, o.name as studio, o.reminder_offsets_mins
    from enrollment en
    join event ev on ev.id = en.event_id
    join activity a on a.id = ev.activity_id
    join location l on l.id = ev.location_id
    join student s on s.id = en.student_id
    join organization o on o.id = en.organization_id
   where en.id = ? and en.organization_id = ?`;

const APPOINTMENT = `
  select ap.id, ap.organization_id, ap.student_id, s.first_name as student_first_name, s.email as student_email,
         ap.status = 'booked' as active,
         case when ap.status = 'cancelled' then 'The appointment was cancelled'
              when ap.status <> 'booked' then 'The appointment is not booked' end as inactive_reason,
         ap.starts_at, a.name as course_name, '' as course_text,
         l.timezone as time_zone, l.online as location_online, l.name as location_name, l.address as location_address,
         ap.meeting_url, o.name as studio, o.reminder_offsets_mins
    from appointment ap
    join activity a on a.id = ap.activity_id
    join location l on l.id = ap.location_id
    join student s on s.id = ap.student_id
    join organization o on o.id = ap.organization_id
   where ap.id = ? and ap.organization_id = ?`;

export async function readReminderBooking(
  em: EntityManager,
  kind: BookingKind,
  organizationId: string,
  bookingId: string,
): Promise<ReminderBookingRow | null> {
  const [row] = await em.execute<ReminderBookingRow[]>(kind === 'enrollment' ? ENROLLMENT : APPOINTMENT, [bookingId, organizationId]);
  return row ?? null;
}

/** The active seats of a session (its time changed: their reminders follow). */
export async function activeEnrollmentIds(em: EntityManager, organizationId: string, eventId: string): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    `select id from enrollment where organization_id = ? and event_id = ? and status = 'active'`,
    [organizationId, eventId],
  );
  return rows.map((r) => r.id);
}
