import { z } from 'zod';
import { ATTENDANCE_VALUES } from './attendance';
import { removeEnrollmentBodySchema } from '../orders/refund.schema';
import { isValidTimeZone } from '../time';
import { APPOINTMENT_MESSAGES as M } from './appointment-messages';

/*
 * The admin's appointment calls (issue 22). An appointment is the booking of an appointment course:
 * one party (a student and their guests) at a time the slot engine offers. The admin makes one in
 * two steps, as the store does: hold a free slot for a student (POST …/activities/{id}/appointments),
 * then enroll directly or send a payment link with `{appointment_id}` (the spec's calls). The hold
 * keeps the time ADMIN_APPOINTMENT_HOLD_MINUTES, a payment link's hold as long as the link.
 */

/** How long an admin's hold keeps a time before enroll or invoice (then it is released). */
export const ADMIN_APPOINTMENT_HOLD_MINUTES = 15;
/** The longest range one calendar call answers (to − from), in days. */
export const MAX_CALENDAR_RANGE_DAYS = 42;
/** Guests with the student on one appointment (one party; the party is at most 20). */
export const MAX_APPOINTMENT_GUESTS = 19;

/** An ISO 8601 date and time with a zone (Z or ±hh:mm), e.g. 2026-12-01T15:00:00Z. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

export const instantString = (message: string) =>
  z.string({ error: message }).refine((v) => v.length <= 40 && INSTANT.test(v) && Number.isFinite(new Date(v).getTime()), message);

/** POST /api/admin/activities/{id}/appointments: hold a free slot of the course for a student. */
export const appointmentCreateSchema = z
  .object({
    student_id: z.uuid({ error: M.student }),
    starts_at: instantString(M.startsAt).describe('ISO 8601 instant: one of the starts the slots call answers'),
    guest_count: z
      .number({ error: M.guestCount })
      .int(M.guestCount)
      .min(0, M.guestCount)
      .max(MAX_APPOINTMENT_GUESTS, M.guestCount)
      .optional()
      .describe('Guests besides the student (default 0)'),
  })
  .strict();
export type AppointmentCreatePayload = z.input<typeof appointmentCreateSchema>;

/** POST /api/admin/appointments/{id}/move: another free slot of the same course; the student is mailed. */
export const appointmentMoveSchema = z
  .object({
    starts_at: instantString(M.startsAt).describe('ISO 8601 instant: a free start of the same course'),
    notify: z.boolean().optional().describe('Mail the student the new time (default true)'),
  })
  .strict();
export type AppointmentMovePayload = z.input<typeof appointmentMoveSchema>;

/**
 * DELETE /api/admin/appointments/{id}: cancel the appointment (Remove student on an appointment). The
 * time is free again at once; with `refund`, the order is refunded in the same operation as a
 * session's Remove student does (a refused refund keeps the appointment). The student is mailed.
 */
export const appointmentCancelSchema = removeEnrollmentBodySchema
  .extend({ notify: z.boolean().optional().describe('Mail the student that it is cancelled (default true)') })
  .strict();
export type AppointmentCancelPayload = z.input<typeof appointmentCancelSchema>;

export const APPOINTMENT_STATUS_VALUES = ['held', 'booked', 'cancelled'] as const;

/** One appointment, as the admin sees it. */
export const appointmentOutSchema = z.object({
  id: z.uuid(),
  activity_id: z.uuid(),
  course_name: z.string(),
  instructor_id: z.uuid(),
  instructor_name: z.string(),
  location_id: z.uuid(),
  location_name: z.string(),
  time_zone: z.string().describe("The location's IANA zone"),
  student: z.object({ id: z.uuid(), first_name: z.string(), last_name: z.string(), email: z.string() }),
  guest_count: z.number().int(),
  status: z.enum(APPOINTMENT_STATUS_VALUES),
  starts_at: z.string(),
  ends_at: z.string(),
  hold_expires_at: z.string().nullable().describe('Until when a held appointment keeps its time'),
  order: z
    .object({ id: z.uuid(), order_number: z.number().int(), status: z.string(), total: z.number().int() })
    .nullable()
    .describe('The order that pays for it, once enrolled or invoiced'),
  paid_with: z
    .string()
    .nullable()
    .optional()
    .describe("The membership or class pack it was booked on (its label), or null (issue 24)"),
  meeting_url: z.string().nullable().describe('The meeting link of an appointment at an online location'),
  checked_in_at: z.string().nullable().describe('When the student was checked in (issue 23), or null'),
  attendance: z.enum(ATTENDANCE_VALUES).describe('Checked in; or not yet; or, once it has ended without a check-in, a no-show'),
});
export type AppointmentOut = z.output<typeof appointmentOutSchema>;

/** PUT and DELETE /api/admin/appointments/{id}/check-in: the appointment's check-in and attendance. */
export const appointmentCheckInOutSchema = z.object({
  appointment_id: z.uuid(),
  checked_in_at: z.string().nullable(),
  attendance: z.enum(ATTENDANCE_VALUES),
});
export type AppointmentCheckInOut = z.output<typeof appointmentCheckInOutSchema>;

/** GET /api/admin/activities/{id}/appointments: the course's appointments, upcoming first. */
export const appointmentListQuerySchema = z.object({
  from: instantString(M.from).optional().describe('ISO 8601 instant: ending after it (default now)'),
  to: instantString(M.to).optional().describe('ISO 8601 instant: starting before it'),
  include_cancelled: z.enum(['true', 'false']).optional().describe('default false'),
  limit: z.coerce.number({ error: M.limit }).int(M.limit).min(1, M.limit).max(200, M.limit).optional().describe('default 50, at most 200'),
});
export const appointmentListOutSchema = z.object({ appointments: z.array(appointmentOutSchema) });

/** GET /api/admin/calendar?from&to&instructor_id&location_id: sessions and appointments together. */
export const calendarQuerySchema = z
  .object({
    from: instantString(M.from).describe('ISO 8601 instant'),
    to: instantString(M.to).describe(`ISO 8601 instant (at most ${MAX_CALENDAR_RANGE_DAYS} days after from)`),
    instructor_id: z.uuid({ error: M.instructor }).optional(),
    location_id: z.uuid({ error: M.location }).optional(),
    tz: z
      .string({ error: M.tz })
      .refine((v) => v.length <= 64 && isValidTimeZone(v), M.tz)
      .optional()
      .describe("IANA zone the page shows times in (default: the organization's)"),
  })
  .superRefine((q, ctx) => {
    const from = new Date(q.from).getTime();
    const to = new Date(q.to).getTime();
    if (!Number.isFinite(from) || !Number.isFinite(to)) return;
    if (!(from < to)) ctx.addIssue({ code: 'custom', path: ['to'], message: M.order });
    else if (to - from > MAX_CALENDAR_RANGE_DAYS * 86_400_000) ctx.addIssue({ code: 'custom', path: ['to'], message: M.calendarRange });
  });
export type CalendarQueryInput = z.input<typeof calendarQuerySchema>;

export const calendarItemSchema = z.object({
  kind: z.enum(['session', 'appointment']),
  /** The event (session) id or the appointment id. */
  id: z.uuid(),
  activity_id: z.uuid(),
  course_name: z.string(),
  /** The student's name for an appointment; the course name for a session. */
  title: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  instructor_id: z.uuid().nullable(),
  instructor_name: z.string().nullable(),
  location_id: z.uuid(),
  location_name: z.string(),
  time_zone: z.string(),
  status: z.string().describe("A session's status, or an appointment's (held, booked)"),
  seats_taken: z.number().int().nullable().describe('Sessions: seats taken'),
  capacity: z.number().int().nullable().describe('Sessions: capacity'),
});
export type CalendarItem = z.output<typeof calendarItemSchema>;
export const calendarOutSchema = z.object({ time_zone: z.string(), items: z.array(calendarItemSchema) });
export type CalendarOut = z.output<typeof calendarOutSchema>;
