import { useWatch, type Control, type UseFormSetValue } from 'react-hook-form';
import { useState } from 'react';
import { Flex, LabeledSwitch, Typography, useQueryClient } from '@studio/ui';
import { AvailabilityEditor } from '../availability/availability-editor';
import { instructorAvailabilityQuery } from '../availability/availability.api';
import {
  hasHours,
  toAvailabilityValues,
  weekdayHours,
  type AvailabilityFormValues,
} from '../availability/availability-values';
import type { SchedulingValues } from './course-form-values';

/**
 * An appointment course's "Own hours" (issue 22): off, students book the instructor's hours
 * (Settings → Instructors); on, the course's own, edited with the same AvailabilityEditor. Turning
 * it on starts from the chosen instructor's hours (weekdays 09:00–17:00 when they have none or
 * cannot be read); off sends null.
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
  const queryClient = useQueryClient();
  const [starting, setStarting] = useState(false);
  const hours = useWatch({ control, name: 'availability' });
  const instructorId = useWatch({
    control: control as unknown as Control<{ instructor_id: string | null }>,
    name: 'instructor_id',
  });

  const turn = async (on: boolean) => {
    if (!on) {
      setValue('availability', null, { shouldDirty: true });
      return;
    }
    let start = weekdayHours();
    if (instructorId) {
      setStarting(true);
      try {
        const theirs = toAvailabilityValues(
          await queryClient.fetchQuery(instructorAvailabilityQuery(instructorId)),
        );
        if (hasHours(theirs)) start = theirs;
      } catch (error) {
        console.error("Reading the instructor's hours failed", error);
      } finally {
        setStarting(false);
      }
    }
    setValue('availability', start, { shouldDirty: true });
  };
  return (
    <Flex vertical gap={12} style={{ marginBottom: 24 }}>
      <LabeledSwitch
        id="own_hours"
        label="Own hours"
        checked={Boolean(hours)}
        loading={starting}
        onChange={(on) => void turn(on)}
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
