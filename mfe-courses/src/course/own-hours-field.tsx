import { useWatch, type Control, type UseFormSetValue } from 'react-hook-form';
import { Flex, LabeledSwitch, Typography } from '@studio/ui';
import { AvailabilityEditor } from '../availability/availability-editor';
import { weekdayHours, type AvailabilityFormValues } from '../availability/availability-values';
import type { SchedulingValues } from './course-form-values';

/**
 * An appointment course's "Own hours" (issue 22): off, students book the instructor's hours
 * (Settings → Instructors); on, the course's own, edited with the same AvailabilityEditor. Turning
 * it on starts from weekdays 09:00–17:00; off sends null.
 */
export function OwnHoursField({
  control,
  setValue,
}: {
  control: Control<SchedulingValues>;
  setValue: UseFormSetValue<SchedulingValues>;
}) {
  // The editor works on the form's `availability` field; this form holds it too (null when off).
  const editorControl = control as unknown as Control<AvailabilityFormValues>;
  const editorSetValue = setValue as unknown as UseFormSetValue<AvailabilityFormValues>;
  const hours = useWatch({ control, name: 'availability' });
  return (
    <Flex vertical gap={12} style={{ marginBottom: 24 }}>
      <LabeledSwitch
        id="own_hours"
        label="Own hours"
        checked={Boolean(hours)}
        onChange={(on) => setValue('availability', on ? weekdayHours() : null, { shouldDirty: true })}
      />
      {hours ? (
        <AvailabilityEditor control={editorControl} setValue={editorSetValue} />
      ) : (
        <Typography.Text type="secondary">
          Students book the instructor&apos;s hours (Settings → Instructors → Hours).
        </Typography.Text>
      )}
    </Flex>
  );
}
