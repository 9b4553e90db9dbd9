import { z } from 'zod';

/*
 * Reminders before a class or appointment (issue 23): the organization's offsets (minutes before
 * the start a reminder mail goes), their rule and messages, used by the API and the settings form.
 */

/** The offsets a new organization has: one reminder a day (24 hours) before. */
export const DEFAULT_REMINDER_OFFSETS_MINS = [1440] as const;
export const REMINDER_OFFSETS_MAX = 3;
/** The shortest offset: 15 minutes before the start. */
export const REMINDER_OFFSET_MIN_MINS = 15;
/** The longest offset: 14 days before the start. */
export const REMINDER_OFFSET_MAX_MINS = 14 * 24 * 60;

export const REMINDER_MESSAGES = {
  offsetsRequired: 'Reminder times are required (an empty list turns reminders off).',
  offsetWhole: 'A reminder time must be a whole number of minutes.',
  offsetRange: 'A reminder time must be between 15 minutes and 14 days before the start.',
  tooMany: 'At most 3 reminder times.',
  duplicate: 'Each reminder time can be chosen once.',
  studentNotFound: 'Student not found',
} as const;

/** Reminder offsets in minutes before the start: at most 3, each 15 minutes to 14 days, no repeats; empty = off. Answered largest first. */
export const reminderOffsetsSchema = z
  .array(
    z
      .number({ error: REMINDER_MESSAGES.offsetWhole })
      .int(REMINDER_MESSAGES.offsetWhole)
      .min(REMINDER_OFFSET_MIN_MINS, REMINDER_MESSAGES.offsetRange)
      .max(REMINDER_OFFSET_MAX_MINS, REMINDER_MESSAGES.offsetRange),
    { error: REMINDER_MESSAGES.offsetsRequired },
  )
  .max(REMINDER_OFFSETS_MAX, REMINDER_MESSAGES.tooMany)
  .refine((offsets) => new Set(offsets).size === offsets.length, REMINDER_MESSAGES.duplicate)
  .transform((offsets) => [...offsets].sort((a, b) => b - a));

/** Settings → Organization: the reminder mails' times. */
export const reminderSettingsSchema = z.strictObject({
  reminder_offsets_mins: reminderOffsetsSchema,
});
export type ReminderSettingsPayload = z.infer<typeof reminderSettingsSchema>;

/** An offset as people say it: "24 hours", "2 hours", "30 minutes", "2 days". */
export function reminderOffsetLabel(mins: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (mins % 1440 === 0 && mins >= 2880) return unit(mins / 1440, 'day');
  if (mins % 60 === 0) return unit(mins / 60, 'hour');
  return unit(mins, 'minute');
}

export const REMINDER_OUTCOMES = ['sent', 'skipped', 'failed'] as const;
export type ReminderOutcome = (typeof REMINDER_OUTCOMES)[number];
