import type { z } from 'zod';
import type {
  addStudentFormSchema,
  eventScheduleFormSchema,
  eventUpdateFormSchema,
} from '../scheduling/scheduling.schema';

/** Front-end constants of the scheduling drawers and dialogs (issue 4) that the specs leave to us. */

/** Student picker: wait this long after the last keystroke before asking the server. */
export const STUDENT_SEARCH_DEBOUNCE_MS = 300;
/** Student picker: how many matches one search shows. */
export const STUDENT_SEARCH_LIMIT = 20;

/**
 * Dialogs mfe-students registers beside its drawers under names that are not drawer types, so the
 * drawer host never opens them as drawers and other remotes can load them.
 */
export const STUDENT_DIALOGS = {
  addStudent: 'add_student',
  removeStudent: 'remove_student',
  /** Move an appointment to another free time of its course (issue 22). */
  moveAppointment: 'move_appointment',
} as const;

/** Colour choices offered when creating a tag (the API takes any #rrggbb). */
export const TAG_COLOR_CHOICES = [
  '#5b6cff',
  '#2f9e44',
  '#f08c00',
  '#e03131',
  '#1098ad',
  '#862e9c',
  '#495057',
] as const;

/** Waiver status labels of the enrollments grid (spec 001 §4). */
export const WAIVER_STATUS_LABELS: Record<string, string> = {
  signed: 'Completed',
  pending: 'Pending',
  expired: 'Unknown',
  not_required: 'N/A',
};

/** The course detail page the admin lands on after a session is deleted (spec 001 §2). */
export const courseDetailPath = (activityId: string) => `/admin/courses/${activityId}`;

/** What the scheduling forms hold (input) and what their resolvers hand to submit (output, cents). */
export type EventScheduleFormInput = z.input<typeof eventScheduleFormSchema>;
export type EventScheduleFormOutput = z.output<typeof eventScheduleFormSchema>;
export type EventUpdateFormInput = z.input<typeof eventUpdateFormSchema>;
export type EventUpdateFormOutput = z.output<typeof eventUpdateFormSchema>;
export type AddStudentFormInput = z.input<typeof addStudentFormSchema>;
export type AddStudentFormOutput = z.output<typeof addStudentFormSchema>;
