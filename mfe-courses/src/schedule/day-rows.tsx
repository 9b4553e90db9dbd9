import { Controller, useFieldArray, useWatch, type Control, type FieldErrors } from 'react-hook-form';
import {
  SCHEDULE_DURATION_OPTIONS_MINS,
  START_TIME_OPTIONS,
  formatDuration,
  type EventScheduleFormOutput,
} from '@studio/contracts';
import {
  Button,
  DatePicker,
  DeleteOutlined,
  Flex,
  Input,
  PlusOutlined,
  Select,
  Typography,
  DATE_INPUT_FORMAT,
  WALL_DATE_FORMAT,
  dayjs,
} from '@studio/ui';
import { endTimeLabel, nextDayRow, type ScheduleFormInput } from './schedule-form-values';

const DURATION_OPTIONS = SCHEDULE_DURATION_OPTIONS_MINS.map((m) => ({ value: m, label: formatDuration(m) }));

interface DayRowsProps {
  control: Control<ScheduleFormInput, unknown, EventScheduleFormOutput>;
  errors: FieldErrors<ScheduleFormInput>;
  daysApart: number;
  timezone: string;
}

/** The General section's day rows: date, start, duration and the end it gives; rows in error are red. */
export function DayRows({ control, errors, daysApart, timezone }: DayRowsProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'dates' });
  const rows = useWatch({ control, name: 'dates' }) ?? [];
  const rowErrors = Array.isArray(errors.dates) ? errors.dates : [];
  // A row's message (spec 000 §5) else the list's own (no rows at all).
  const rowMessage = rowErrors.find(Boolean)?.message ?? errors.dates?.message ?? errors.dates?.root?.message;
  return (
    <Flex vertical gap={8}>
      {fields.map((field, index) => {
        const status = rowErrors[index] ? ('error' as const) : undefined;
        const row = rows[index];
        const n = index + 1;
        return (
          <Flex key={field.id} gap={8} align="center" wrap data-testid={`day-row-${n}`}>
            <Typography.Text style={{ width: 48 }}>Day {n}</Typography.Text>
            <Controller
              control={control}
              name={`dates.${index}.date`}
              render={({ field: f }) => (
                <DatePicker
                  aria-label={`Date of day ${n}`}
                  status={status}
                  format={DATE_INPUT_FORMAT}
                  value={typeof f.value === 'string' && f.value ? dayjs(f.value, WALL_DATE_FORMAT) : null}
                  onChange={(value) => f.onChange(value ? value.format(WALL_DATE_FORMAT) : '')}
                />
              )}
            />
            <Controller
              control={control}
              name={`dates.${index}.time`}
              render={({ field: f }) => (
                <Select
                  aria-label={`Start time of day ${n}`}
                  status={status}
                  style={{ width: 120 }}
                  showSearch
                  // Typed text matches what is shown ("6:00" finds 6:00 AM and 6:00 PM), not the
                  // value ("16:00" holds "6:00": issue 25).
                  optionFilterProp="label"
                  value={(f.value as string) || undefined}
                  onChange={f.onChange}
                  options={START_TIME_OPTIONS}
                />
              )}
            />
            <Controller
              control={control}
              name={`dates.${index}.duration`}
              render={({ field: f }) => (
                <Select
                  aria-label={`Duration of day ${n}`}
                  status={status}
                  style={{ width: 130 }}
                  value={(f.value as number) || undefined}
                  onChange={f.onChange}
                  options={DURATION_OPTIONS}
                />
              )}
            />
            <Input
              aria-label={`End of day ${n}`}
              readOnly
              status={status}
              style={{ width: 130 }}
              value={endTimeLabel(row?.time, row?.duration)}
            />
            <Button
              type="text"
              aria-label={`Remove day ${n}`}
              icon={<DeleteOutlined />}
              disabled={fields.length === 1}
              onClick={() => remove(index)}
            />
          </Flex>
        );
      })}
      {rowMessage ? (
        <Typography.Text type="danger" role="alert">
          {rowMessage}
        </Typography.Text>
      ) : null}
      <div>
        <Button icon={<PlusOutlined />} onClick={() => append(nextDayRow(rows, daysApart, timezone))}>
          Add day
        </Button>
      </div>
    </Flex>
  );
}
