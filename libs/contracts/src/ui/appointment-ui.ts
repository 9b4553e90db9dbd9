import { z } from 'zod';
import { appointmentCreateSchema, instantString } from '../scheduling/appointment.schema';
import { SCHEDULING_MESSAGES } from '../scheduling/scheduling-messages';

/**
 * The admin's appointment screens (issue 22): Add student on an appointment course, Move, the
 * Booking card's appointments and the Calendar page. The API's rules are appointment.schema.ts; these
 * are the forms' (built on them) and the words the screens use.
 */
export const APPOINTMENT_UI_MESSAGES = {
  /** Add student or Move without a time picked. */
  pickTime: 'Pick a time.',
  /** The day picked has no free time left (another booking took the last one meanwhile). */
  noTimes: 'No free times on this day.',
  moved: 'Appointment moved',
  moveFailed: 'Could not move the appointment.',
  cancelled: 'Appointment cancelled',
  calendarLoadFailed: 'Could not load the calendar',
  appointmentsLoadFailed: 'Could not load the appointments',
} as const;

/** Add student on an appointment course: a student, a free start, guests, then enroll or send a link. */
export const appointmentAddStudentFormSchema = z.object({
  student_id: z.uuid({ error: SCHEDULING_MESSAGES.selectStudent }),
  starts_at: instantString(APPOINTMENT_UI_MESSAGES.pickTime),
  guest_count: appointmentCreateSchema.shape.guest_count.unwrap(),
  method: z.enum(['enroll', 'invoice', 'holding']).default('enroll'),
  holding_id: z.string().optional(),
});
export type AppointmentAddStudentFormInput = z.input<typeof appointmentAddStudentFormSchema>;
export type AppointmentAddStudentFormOutput = z.output<typeof appointmentAddStudentFormSchema>;

/** Move: another free start of the same course; the student is mailed unless the switch is off. */
export const appointmentMoveFormSchema = z.object({
  starts_at: instantString(APPOINTMENT_UI_MESSAGES.pickTime),
  notify: z.boolean().default(true),
});
export type AppointmentMoveFormInput = z.input<typeof appointmentMoveFormSchema>;
export type AppointmentMoveFormOutput = z.output<typeof appointmentMoveFormSchema>;

/** How the calendar page and the Booking card name an appointment's status. */
export const APPOINTMENT_STATUS_LABELS: Record<string, string> = {
  held: 'Held',
  booked: 'Booked',
  cancelled: 'Cancelled',
};

/** The calendar page's views: a week (Monday first) or one day. */
export const CALENDAR_VIEWS = ['week', 'day'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];
/** The calendar page's path (in the admin's menu, beside Courses). */
export const CALENDAR_PATH = '/admin/calendar';
