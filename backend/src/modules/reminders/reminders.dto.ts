import { REMINDER_OUTCOMES } from '@studio/contracts';
import { z } from 'zod';
import { createZodDto } from '../../common/zod-dto';

const instant = z.string().describe('An instant, ISO 8601 in UTC');

export const reminderLogEntrySchema = z.object({
  id: z.uuid(),
  booking_kind: z.enum(['enrollment', 'appointment']).describe('A seat in a session (enrollment) or an appointment'),
  booking_id: z.uuid(),
  course_name: z.string().nullable(),
  time_zone: z.string().nullable().describe("The location's zone, in which the start is shown"),
  offset_mins: z.number().int().describe('Minutes before the start the reminder was for'),
  starts_at: instant.describe('The start the reminder was made for'),
  sent_at: instant.describe('When the reminder job ran'),
  to: z.string().nullable().describe('The address the mail went to (none when skipped)'),
  outcome: z.enum(REMINDER_OUTCOMES),
  detail: z.string().nullable().describe('Why it was skipped, or the error it failed with'),
});

export const studentRemindersSchema = z.object({ reminders: z.array(reminderLogEntrySchema).describe('Newest first') });
export class StudentRemindersDto extends createZodDto(studentRemindersSchema) {}
