import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  SCHEDULING_MESSAGES,
  eventScheduleFormSchema,
  type EventScheduleFormOutput,
} from '@studio/contracts';
import {
  useCancel,
  busy,
  Alert,
  App,
  Button,
  DrawerSection,
  DrawerShell,
  Form,
  FormField,
  Input,
  QueryGuard,
  Select,
  courseQueries,
  instructorQueries,
  locationQueries,
  serverMessage,
  usePickerList,
  useQuery,
  useUnsavedChanges,
  zodResolver,
  type DrawerProps,
  LabeledSwitch,
} from '@studio/ui';
import { DayRows } from './day-rows';
import { EventbriteConnectionWarning } from '../edit-course/sync-settings';
import { useScheduleEvent } from '../api/events';
import type { ScheduleCourse } from './schedule.api';
import {
  courseToScheduleDefaults,
  type ScheduleDefaults,
  type ScheduleFormInput,
} from './schedule-form-values';

export interface ScheduleCourseDrawerData {
  activity_id: string;
}

/** Schedule Course (spec 000 §2, spec 001 §2): adds one dated session of a course, of one or more days. */
export function ScheduleCourseDrawer({ data, close }: DrawerProps<ScheduleCourseDrawerData>) {
  const query = useQuery(courseQueries.detail(data.activity_id));
  const defaults = useMemo(() => (query.data ? courseToScheduleDefaults(query.data) : null), [query.data]);
  return (
    <QueryGuard query={query} title="Could not load this course" pending={!defaults}>
      {(course) =>
        course.activity_type === 'appointment' ? (
          // Appointment courses are booked by students at a time they choose: they get no dated sessions.
          <DrawerShell title={`Schedule ${course.name}`} footer={<Button onClick={close}>Close</Button>}>
            <Alert type="info" showIcon title={SCHEDULING_MESSAGES.appointmentNotSchedulable} />
          </DrawerShell>
        ) : (
          defaults && <ScheduleForm course={course} defaults={defaults} close={close} />
        )
      }
    </QueryGuard>
  );
}

interface ScheduleFormProps {
  course: ScheduleCourse;
  defaults: ScheduleDefaults;
  close: () => void;
}

function ScheduleForm({ course, defaults, close }: ScheduleFormProps) {
  const cancel = useCancel(close);
  const { message } = App.useApp();
  const [failure, setFailure] = useState<string | null>(null);
  const schedule = useScheduleEvent(course.activity_id);
  // Pickers: a failed load is only logged and the list stays empty (spec 001 §8).
  const { items: locations } = usePickerList(locationQueries.list(), (a) => a.locations, 'locations');
  const { items: instructors } = usePickerList(instructorQueries.list(), (a) => a.instructors, 'instructors');
  const form = useForm<ScheduleFormInput, unknown, EventScheduleFormOutput>({
    resolver: zodResolver(eventScheduleFormSchema),
    defaultValues: defaults.values,
  });
  const { control, handleSubmit, setValue, formState } = form;
  // Closing with unsaved changes asks "Discard unsaved changes?" first (the drawer host consults this).
  useUnsavedChanges(form.formState.isDirty);
  const [overridePrice, setCapacity] = useWatch({ control, name: ['override_price', 'set_capacity'] });

  // A toggle that is on makes its field required (spec 000 §5); off, the schema leaves the field out.
  const revalidate = { shouldValidate: formState.isSubmitted };
  const togglePrice = (on: boolean) => {
    setValue('override_price', on);
    setValue('price', on ? defaults.coursePriceText : '', revalidate);
  };
  const toggleCapacity = (on: boolean) => {
    setValue('set_capacity', on);
    setValue('capacity', on ? defaults.courseCapacity : '', revalidate);
  };

  const submit = handleSubmit(async (payload) => {
    setFailure(null);
    try {
      await schedule.mutateAsync(payload);
      message.success(SCHEDULING_MESSAGES.scheduled);
      close();
    } catch (error) {
      message.error(SCHEDULING_MESSAGES.scheduleFailed);
      setFailure(serverMessage(error, SCHEDULING_MESSAGES.scheduleFailed));
    }
  });

  return (
    <DrawerShell
      title={`Schedule ${course.name}`}
      footer={
        <>
          <Button onClick={cancel}>Cancel</Button>
          <Button type="primary" loading={busy(formState.isSubmitting)} onClick={() => void submit()}>
            Schedule
          </Button>
        </>
      }
    >
      <Form layout="vertical" component={false}>
        {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} /> : null}
        <DrawerSection title="General">
          <DayRows
            control={control}
            errors={formState.errors}
            daysApart={defaults.daysApart}
            timezone={defaults.timezone}
          />
        </DrawerSection>
        <DrawerSection title="Details">
          <FormField control={control} name="course_name" label="Name" required>
            {(field, state) => (
              <Input
                id="course_name"
                status={state.error ? 'error' : undefined}
                value={(field.value as string) ?? ''}
                onChange={field.onChange}
              />
            )}
          </FormField>
          <Form.Item>
            <LabeledSwitch label="Override price" checked={overridePrice} onChange={togglePrice} />
          </Form.Item>
          {overridePrice ? (
            <FormField control={control} name="price" label="Price" required>
              {(field, state) => (
                <Input
                  id="price"
                  prefix="$"
                  inputMode="decimal"
                  status={state.error ? 'error' : undefined}
                  value={(field.value as string) ?? ''}
                  onChange={field.onChange}
                />
              )}
            </FormField>
          ) : null}
          <Form.Item>
            <LabeledSwitch label="Set capacity" checked={setCapacity} onChange={toggleCapacity} />
          </Form.Item>
          {setCapacity ? (
            <FormField control={control} name="capacity" label="Capacity" required>
              {(field, state) => (
                <Input
                  id="capacity"
                  inputMode="numeric"
                  status={state.error ? 'error' : undefined}
                  value={field.value === undefined || field.value === null ? '' : String(field.value)}
                  // The schema wants a number; keep the raw text when it is not one so the rule can say so.
                  onChange={(e) => {
                    const text = e.target.value.trim();
                    field.onChange(text === '' ? '' : /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text);
                  }}
                />
              )}
            </FormField>
          ) : null}
          <FormField control={control} name="internal_short_description" label="Internal short description">
            {(field) => (
              <Input
                id="internal_short_description"
                maxLength={120}
                value={(field.value as string) ?? ''}
                onChange={field.onChange}
              />
            )}
          </FormField>
        </DrawerSection>
        <DrawerSection title="Location">
          <FormField control={control} name="location_id" label="Location" required>
            {(field, state) => (
              <Select
                id="location_id"
                aria-label="Location"
                status={state.error ? 'error' : undefined}
                value={field.value || undefined}
                onChange={field.onChange}
                options={locations.map((l) => ({ value: l.location_id, label: l.name || l.address }))}
              />
            )}
          </FormField>
        </DrawerSection>
        <DrawerSection title="Instructor">
          <FormField control={control} name="instructor_id" label="Instructor" required>
            {(field, state) => (
              <Select
                id="instructor_id"
                aria-label="Instructor"
                status={state.error ? 'error' : undefined}
                value={field.value || undefined}
                onChange={field.onChange}
                options={instructors.map((i) => ({
                  value: i.instructor_id,
                  label: `${i.first_name} ${i.last_name}`.trim(),
                }))}
              />
            )}
          </FormField>
        </DrawerSection>
        <DrawerSection title="Sync settings">
          <FormField control={control} name="sync_with_eventbrite">
            {(field) => (
              <>
                <LabeledSwitch
                  label="Sync with Eventbrite"
                  checked={Boolean(field.value)}
                  onChange={field.onChange}
                />
                <EventbriteConnectionWarning on={Boolean(field.value)} />
              </>
            )}
          </FormField>
        </DrawerSection>
      </Form>
    </DrawerShell>
  );
}
