import { Controller, useForm, type Resolver } from 'react-hook-form';
import {
  REMINDER_OFFSETS_MAX,
  reminderOffsetLabel,
  reminderSettingsSchema,
  type ReminderSettingsPayload,
} from '@studio/contracts';
import { App, Button, Form, Select, Typography, busy, serverMessage, zodResolver } from '@studio/ui';
import { useSaveReminderSettings } from '../api/organizations';

export const REMINDER_TEXTS = {
  title: 'Reminders',
  label: 'Reminder emails before a class or appointment',
  off: 'Reminders are off: students get no reminder emails.',
  help: `Up to ${REMINDER_OFFSETS_MAX} times. Bookings made or moved from now on follow them.`,
  saved: 'Reminder times saved',
  saveFailed: 'Could not save the reminder times',
  save: 'Save reminder times',
} as const;

/** The times offered (minutes before the start); a time saved otherwise (through the API) is offered too. */
export const REMINDER_CHOICES = [15, 30, 60, 120, 180, 360, 720, 1440, 2880, 4320, 10080, 20160] as const;

const resolver = zodResolver(reminderSettingsSchema) as unknown as Resolver<
  { reminder_offsets_mins: number[] },
  unknown,
  ReminderSettingsPayload
>;

/**
 * Settings → Organization → Reminders: when the reminder mails go (24 hours before by default; empty
 * turns them off). Each send is logged on the booking and listed in the student drawer.
 */
export function ReminderSettings({ offsets, canEdit }: { offsets: number[]; canEdit: boolean }) {
  const { message } = App.useApp();
  const save = useSaveReminderSettings();
  const form = useForm<{ reminder_offsets_mins: number[] }, unknown, ReminderSettingsPayload>({
    resolver,
    defaultValues: { reminder_offsets_mins: offsets },
  });
  const options = [...new Set([...REMINDER_CHOICES, ...offsets])]
    .sort((a, b) => b - a)
    .map((mins) => ({ value: mins, label: `${reminderOffsetLabel(mins)} before` }));

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      form.reset({ reminder_offsets_mins: saved.reminder_offsets_mins });
      message.success(REMINDER_TEXTS.saved);
    } catch (error) {
      console.error('Saving the reminder times failed', error);
      message.error(serverMessage(error, REMINDER_TEXTS.saveFailed));
    }
  });
  const chosen = form.watch('reminder_offsets_mins');
  const error = form.formState.errors.reminder_offsets_mins;
  const errorText = error?.message ?? (Array.isArray(error) ? error.find((e) => e?.message)?.message : undefined);

  return (
    <section aria-labelledby="reminders-title">
      <Typography.Title level={2} id="reminders-title" style={{ fontSize: 20 }}>
        {REMINDER_TEXTS.title}
      </Typography.Title>
      <form onSubmit={onSubmit} aria-label="Reminder settings" noValidate>
        <Form layout="vertical" component={false}>
          <Form.Item
            label={REMINDER_TEXTS.label}
            htmlFor="reminder_offsets_mins"
            validateStatus={errorText ? 'error' : undefined}
            help={errorText ?? (chosen.length ? REMINDER_TEXTS.help : REMINDER_TEXTS.off)}
          >
            <Controller
              control={form.control}
              name="reminder_offsets_mins"
              render={({ field }) => (
                <Select
                  id="reminder_offsets_mins"
                  mode="multiple"
                  allowClear
                  placeholder="No reminders"
                  maxCount={REMINDER_OFFSETS_MAX}
                  options={options}
                  value={field.value}
                  onChange={(value: number[]) => field.onChange(value)}
                  onBlur={field.onBlur}
                  disabled={!canEdit}
                  style={{ maxWidth: 480 }}
                />
              )}
            />
          </Form.Item>
          {canEdit ? (
            <Button htmlType="submit" loading={busy(form.formState.isSubmitting)}>
              {REMINDER_TEXTS.save}
            </Button>
          ) : null}
        </Form>
      </form>
    </section>
  );
}
