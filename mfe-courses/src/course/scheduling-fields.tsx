import type { Control } from 'react-hook-form';
import {
  APPOINTMENT_DURATION_OPTIONS_MINS,
  BOOKING_WINDOW_RANGE_DAYS,
  BUFFER_OPTIONS_MINS,
  DEFAULT_BOOKING_WINDOW_DAYS,
  DEFAULT_DAILY_MINS_OPTIONS,
  MIN_NOTICE_OPTIONS_MINS,
  START_TIME_INCREMENTS_MINS,
  START_TIME_OPTIONS,
  formatDuration,
} from '@studio/contracts';
import { FormField, NumberField, NumberInput, Select } from '@studio/ui';
import type { CourseDefaultsValues, SchedulingValues } from './course-form-values';

type MinuteSetting = 'buffer_before_mins' | 'buffer_after_mins' | 'min_notice_mins' | 'start_time_increments_mins' | 'duration_mins';

const minuteOptions = (values: readonly number[]) =>
  values.map((v) => ({ value: v, label: formatDuration(v) }));

/**
 * Buffers, minimum notice, start-time increments and duration of an appointment course (spec 000 §9),
 * and beside them how far ahead a student may book (issue 22).
 */
export function AppointmentSchedulingFields({ control }: { control: Control<SchedulingValues> }) {
  const select = (name: MinuteSetting, label: string, values: readonly number[]) => (
    <FormField control={control} name={name} label={label}>
      {(field, state) => (
        <Select<number>
          id={name}
          aria-label={label}
          status={state.error ? 'error' : undefined}
          value={field.value}
          onChange={field.onChange}
          options={minuteOptions(values)}
        />
      )}
    </FormField>
  );
  return (
    <>
      {select('buffer_before_mins', 'Buffer before', BUFFER_OPTIONS_MINS)}
      {select('buffer_after_mins', 'Buffer after', BUFFER_OPTIONS_MINS)}
      {select('min_notice_mins', 'Minimum notice', MIN_NOTICE_OPTIONS_MINS)}
      {select('start_time_increments_mins', 'Start-time increments', START_TIME_INCREMENTS_MINS)}
      {select('duration_mins', 'Duration', APPOINTMENT_DURATION_OPTIONS_MINS)}
      <NumberField
        control={control}
        name="booking_window_days"
        label="How far ahead a student may book (days)"
        extra={`From ${BOOKING_WINDOW_RANGE_DAYS.min} to ${BOOKING_WINDOW_RANGE_DAYS.max} days; ${DEFAULT_BOOKING_WINDOW_DAYS} by default.`}
      />
    </>
  );
}

/** What the Schedule Course drawer starts from: days, days apart, class duration, start time. */
export function CourseDefaultsFields({ control }: { control: Control<CourseDefaultsValues> }) {
  return (
    <>
      <FormField control={control} name="default_days" label="Default days">
        {(field, state) => (
          <NumberInput
            id="default_days"
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            status={state.error ? 'error' : undefined}
          />
        )}
      </FormField>
      <FormField control={control} name="default_days_apart" label="Default days apart">
        {(field, state) => (
          <NumberInput
            id="default_days_apart"
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            status={state.error ? 'error' : undefined}
          />
        )}
      </FormField>
      <FormField control={control} name="default_daily_mins" label="Default class duration">
        {(field) => (
          <Select<number>
            id="default_daily_mins"
            aria-label="Default class duration"
            value={field.value}
            onChange={field.onChange}
            options={minuteOptions(DEFAULT_DAILY_MINS_OPTIONS)}
          />
        )}
      </FormField>
      <FormField control={control} name="default_start_time" label="Default start time">
        {(field) => (
          <Select<string>
            id="default_start_time"
            aria-label="Default start time"
            value={field.value}
            onChange={field.onChange}
            options={START_TIME_OPTIONS}
          />
        )}
      </FormField>
    </>
  );
}
