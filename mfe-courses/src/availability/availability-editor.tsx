import type { ReactNode } from 'react';
import {
  Controller,
  get,
  useFieldArray,
  useFormState,
  useWatch,
  type Control,
  type FieldPath,
  type UseFormSetValue,
} from 'react-hook-form';
import {
  WEEKDAYS_MONDAY_FIRST,
  formatWallTime,
  minutesToWallTime,
  wallTimeToMinutes,
  type Weekday,
} from '@studio/contracts';
import {
  Button,
  Checkbox,
  DATE_INPUT_FORMAT,
  DatePicker,
  DeleteOutlined,
  Flex,
  PlusOutlined,
  Radio,
  Select,
  Typography,
  WALL_DATE_FORMAT,
  dayjs,
} from '@studio/ui';
import type { AvailabilityFormValues, RangeValues } from './availability-values';

export const WEEKDAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

const TUESDAY_TO_FRIDAY: readonly Weekday[] = ['tue', 'wed', 'thu', 'fri'];

/** Every quarter hour of the day; an end may also be midnight at the end of the day (24:00). */
const QUARTERS = Array.from({ length: 96 }, (_, i) => minutesToWallTime(i * 15));
const timeLabel = (time: string) =>
  time === '24:00' ? 'Midnight (end of day)' : formatWallTime(time) || time;
const START_OPTIONS = QUARTERS.map((t) => ({ value: t, label: timeLabel(t) }));
const END_OPTIONS = [...QUARTERS.slice(1), '24:00'].map((t) => ({ value: t, label: timeLabel(t) }));
/** The options, with a stored time off the quarter-hour grid (09:10) kept as a choice. */
const withValue = (options: typeof START_OPTIONS, value: unknown) =>
  typeof value === 'string' && value && !options.some((o) => o.value === value)
    ? [...options, { value, label: timeLabel(value) }].sort((a, b) => a.value.localeCompare(b.value))
    : options;

/** Hours a day or a date gets when it is opened: 09:00–17:00. */
export const DEFAULT_RANGE: RangeValues = { start: '09:00', end: '17:00' };

/** The range added after the last one: an hour from its end (up to midnight), else DEFAULT_RANGE. */
export function nextRange(ranges: readonly RangeValues[]): RangeValues {
  const last = ranges[ranges.length - 1];
  const end = last ? wallTimeToMinutes(last.end, true) : null;
  if (end === null || end >= 24 * 60) return { ...DEFAULT_RANGE };
  return { start: minutesToWallTime(end), end: minutesToWallTime(Math.min(end + 60, 24 * 60)) };
}

/** The message of a field's error, when it has one. */
const fieldMessage = (error: unknown) => (error as { message?: string } | undefined)?.message;

/** A message the resolver (or the API) put on an array: its own, or its root's. */
function arrayMessage(error: unknown): string | undefined {
  const e = error as { message?: string; root?: { message?: string } } | undefined;
  return e?.message ?? e?.root?.message;
}

type Path = FieldPath<AvailabilityFormValues>;

interface DayRangesProps {
  control: Control<AvailabilityFormValues>;
  /** The ranges' path: availability.weekly.mon or availability.overrides.0.ranges. */
  name: `availability.weekly.${Weekday}` | `availability.overrides.${number}.ranges`;
  /** How the rows are named to assistive technology: "Monday", "Date 2". */
  label: string;
  /** The day's control that opens and closes it, given whether it is open and how to change that. */
  header: (open: boolean, setOpen: (open: boolean) => void) => ReactNode;
}

/** The ranges of one day (or one date): start and end of each, remove, add; the day's messages under it. */
function DayRanges({ control, name, label, header }: DayRangesProps) {
  const { fields, append, remove, replace } = useFieldArray({ control, name });
  const ranges = (useWatch({ control, name }) ?? []) as RangeValues[];
  const { errors } = useFormState({ control, name });
  const open = fields.length > 0;
  const setOpen = (on: boolean) => replace(on ? [{ ...DEFAULT_RANGE }] : []);
  const dayMessage = arrayMessage(get(errors, name));
  return (
    <Flex gap={12} align="start" wrap role="group" aria-label={`Hours of ${label}`}>
      <div style={{ width: 150, paddingTop: 4 }}>{header(open, setOpen)}</div>
      <Flex vertical gap={6} style={{ flex: 1, minWidth: 280 }}>
        {open ? null : (
          <Typography.Text type="secondary" style={{ paddingTop: 4 }}>
            Closed
          </Typography.Text>
        )}
        {fields.map((field, index) => {
          const n = index + 1;
          const startError = fieldMessage(get(errors, `${name}.${index}.start`));
          const endError = fieldMessage(get(errors, `${name}.${index}.end`));
          const rowError = arrayMessage(get(errors, `${name}.${index}`));
          return (
            <Flex key={field.id} vertical gap={2}>
              <Flex gap={8} align="center">
                <Controller
                  control={control}
                  name={`${name}.${index}.start` as Path}
                  render={({ field: f }) => (
                    <Select<string>
                      aria-label={`${label} start ${n}`}
                      status={startError || rowError ? 'error' : undefined}
                      style={{ width: 130 }}
                      showSearch
                      optionFilterProp="label"
                      value={(f.value as string) || undefined}
                      onChange={f.onChange}
                      options={withValue(START_OPTIONS, f.value)}
                    />
                  )}
                />
                <span aria-hidden>–</span>
                <Controller
                  control={control}
                  name={`${name}.${index}.end` as Path}
                  render={({ field: f }) => (
                    <Select<string>
                      aria-label={`${label} end ${n}`}
                      status={endError || rowError ? 'error' : undefined}
                      style={{ width: 190 }}
                      showSearch
                      optionFilterProp="label"
                      value={(f.value as string) || undefined}
                      onChange={f.onChange}
                      options={withValue(END_OPTIONS, f.value)}
                    />
                  )}
                />
                <Button
                  type="text"
                  aria-label={`Remove ${label} hours ${n}`}
                  icon={<DeleteOutlined />}
                  onClick={() => remove(index)}
                />
              </Flex>
              {[startError, endError, rowError].filter(Boolean).map((message) => (
                <Typography.Text key={message} type="danger" role="alert">
                  {message}
                </Typography.Text>
              ))}
            </Flex>
          );
        })}
        {dayMessage ? (
          <Typography.Text type="danger" role="alert">
            {dayMessage}
          </Typography.Text>
        ) : null}
      </Flex>
      {open ? (
        <Button
          type="text"
          icon={<PlusOutlined />}
          aria-label={`Add hours on ${label}`}
          onClick={() => append(nextRange(ranges))}
        />
      ) : null}
    </Flex>
  );
}

/** One date override: its date, closed or its own hours, and Remove. */
function OverrideRow({
  control,
  index,
  onRemove,
}: {
  control: Control<AvailabilityFormValues>;
  index: number;
  onRemove: () => void;
}) {
  const n = index + 1;
  const { errors } = useFormState({ control, name: `availability.overrides.${index}.date` });
  const dateError = fieldMessage(get(errors, `availability.overrides.${index}.date`));
  return (
    <Flex vertical gap={4} data-testid={`override-${n}`}>
      <Flex gap={8} align="center" wrap>
        <Controller
          control={control}
          name={`availability.overrides.${index}.date`}
          render={({ field: f }) => (
            <DatePicker
              aria-label={`Date ${n}`}
              status={dateError ? 'error' : undefined}
              format={DATE_INPUT_FORMAT}
              value={typeof f.value === 'string' && f.value ? dayjs(f.value, WALL_DATE_FORMAT) : null}
              onChange={(value) => f.onChange(value ? value.format(WALL_DATE_FORMAT) : '')}
            />
          )}
        />
        <Button type="text" aria-label={`Remove date ${n}`} icon={<DeleteOutlined />} onClick={onRemove} />
      </Flex>
      {dateError ? (
        <Typography.Text type="danger" role="alert">
          {dateError}
        </Typography.Text>
      ) : null}
      <DayRanges
        control={control}
        name={`availability.overrides.${index}.ranges`}
        label={`Date ${n}`}
        header={(open, setOpen) => (
          <Radio.Group
            aria-label={`Date ${n} is`}
            value={open ? 'hours' : 'closed'}
            onChange={(e) => setOpen(e.target.value === 'hours')}
            options={[
              { value: 'closed', label: 'Closed' },
              { value: 'hours', label: 'Hours' },
            ]}
          />
        )}
      />
    </Flex>
  );
}

/**
 * Bookable hours (issue 22), edited in a react-hook-form form whose `availability` field holds them
 * ({weekly, overrides}, checked by the contracts' availabilitySchema): a week grid, Monday first,
 * each day closed or open with one or more ranges, and a list of dates that replace the week's hours
 * (closed, or hours of their own). The instructor's Hours (Settings → Instructors) and an
 * appointment course's own hours both use it.
 */
export function AvailabilityEditor({
  control,
  setValue,
}: {
  control: Control<AvailabilityFormValues>;
  setValue: UseFormSetValue<AvailabilityFormValues>;
}) {
  const overrides = useFieldArray({ control, name: 'availability.overrides' });
  const { errors, isSubmitted } = useFormState({ control });
  const monday = useWatch({ control, name: 'availability.weekly.mon' }) as RangeValues[] | undefined;

  // Tuesday to Friday get Monday's hours (a copy of each range), closed when Monday is.
  const copyMonday = () => {
    for (const day of TUESDAY_TO_FRIDAY) {
      setValue(
        `availability.weekly.${day}`,
        (monday ?? []).map((r) => ({ ...r })),
        { shouldDirty: true, shouldValidate: isSubmitted },
      );
    }
  };
  const availabilityError = get(errors, 'availability') as { message?: string } | undefined;
  const overridesMessage = arrayMessage(get(errors, 'availability.overrides'));

  return (
    <Flex vertical gap={16}>
      <Typography.Text type="secondary">
        Hours are read in the time zone of the location of the course being booked.
      </Typography.Text>
      {availabilityError?.message ? (
        <Typography.Text type="danger" role="alert">
          {availabilityError.message}
        </Typography.Text>
      ) : null}
      <Flex vertical gap={8} role="group" aria-label="Weekly hours">
        <Flex justify="space-between" align="center">
          <Typography.Text strong>Weekly hours</Typography.Text>
          <Button size="small" onClick={copyMonday}>
            Copy Monday to weekdays
          </Button>
        </Flex>
        {WEEKDAYS_MONDAY_FIRST.map((day) => (
          <DayRanges
            key={day}
            control={control}
            name={`availability.weekly.${day}`}
            label={WEEKDAY_NAMES[day]}
            header={(open, setOpen) => (
              <Checkbox checked={open} onChange={(e) => setOpen(e.target.checked)}>
                {WEEKDAY_NAMES[day]}
              </Checkbox>
            )}
          />
        ))}
      </Flex>
      <Flex vertical gap={8} role="group" aria-label="Date overrides">
        <Typography.Text strong>Date overrides</Typography.Text>
        <Typography.Text type="secondary">
          A date here replaces the weekly hours of that day: closed, or its own hours.
        </Typography.Text>
        {overrides.fields.length === 0 ? <Typography.Text type="secondary">No dates</Typography.Text> : null}
        {overrides.fields.map((field, index) => (
          <OverrideRow
            key={field.id}
            control={control}
            index={index}
            onRemove={() => overrides.remove(index)}
          />
        ))}
        {overridesMessage ? (
          <Typography.Text type="danger" role="alert">
            {overridesMessage}
          </Typography.Text>
        ) : null}
        <div>
          <Button icon={<PlusOutlined />} onClick={() => overrides.append({ date: '', ranges: [] })}>
            Add a date
          </Button>
        </div>
      </Flex>
    </Flex>
  );
}
