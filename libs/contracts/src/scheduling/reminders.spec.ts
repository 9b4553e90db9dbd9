import { REMINDER_MESSAGES as R, reminderOffsetLabel, reminderSettingsSchema } from './reminders';

describe('reminder settings', () => {
  const message = (reminder_offsets_mins: unknown) =>
    reminderSettingsSchema.safeParse({ reminder_offsets_mins }).error?.issues[0].message;

  it('takes up to 3 times of 15 minutes to 14 days, largest first; empty turns reminders off', () => {
    expect(reminderSettingsSchema.parse({ reminder_offsets_mins: [120, 1440] })).toEqual({ reminder_offsets_mins: [1440, 120] });
    expect(reminderSettingsSchema.parse({ reminder_offsets_mins: [15, 20160, 60] })).toEqual({ reminder_offsets_mins: [20160, 60, 15] });
    expect(reminderSettingsSchema.parse({ reminder_offsets_mins: [] })).toEqual({ reminder_offsets_mins: [] });
  });

  it('refuses with a message a person can act on', () => {
    expect(message([14])).toBe(R.offsetRange);
    expect(message([20161])).toBe(R.offsetRange);
    expect(message([30, 60, 120, 240])).toBe(R.tooMany);
    expect(message([60, 60])).toBe(R.duplicate);
    expect(message([1.5])).toBe(R.offsetWhole);
    expect(message(['60'])).toBe(R.offsetWhole);
    expect(message(undefined)).toBe(R.offsetsRequired);
    expect(reminderSettingsSchema.safeParse({ reminder_offsets_mins: [60], other: 1 }).success).toBe(false);
  });

  it('names an offset as people say it', () => {
    expect(reminderOffsetLabel(1440)).toBe('24 hours');
    expect(reminderOffsetLabel(120)).toBe('2 hours');
    expect(reminderOffsetLabel(60)).toBe('1 hour');
    expect(reminderOffsetLabel(45)).toBe('45 minutes');
    expect(reminderOffsetLabel(2880)).toBe('2 days');
  });
});
