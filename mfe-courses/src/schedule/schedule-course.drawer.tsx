import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { SCHEDULING_MESSAGES, eventScheduleFormSchema, type EventScheduleFormOutput } from '@studio/contracts';
import {
  Alert,
  App,
  Button,
  DrawerSection,
  DrawerShell,
  Flex,
  Form,
  FormField,
  Input,
  LoadingSkeleton,
  Result,
  Select,
  Switch,
  serverMessage,
  useList,
  zodResolver,
  type DrawerProps,
} from '@studio/ui';
import { DayRows } from './day-rows';
import {
  fetchCourse,
  scheduleEvent,
  type InstructorItem,
  type LocationItem,
  type ScheduleCourse,
} from './schedule.api';
import { courseToScheduleDefaults, type ScheduleDefaults, type ScheduleFormInput } from './schedule-form-values';

export interface ScheduleCourseDrawerData {
  activity_id: string;
}

/** Schedule Course (spec 000 §2, spec 001 §2): adds one dated session of a course, of one or more days. */
export function ScheduleCourseDrawer({ data, close }: DrawerProps<ScheduleCourseDrawerData>) {
  const [course, setCourse] = useState<{ course: ScheduleCourse; defaults: ScheduleDefaults } | 'failed' | null>(
    null,
  );
  useEffect(() => {
    let live = true;
    fetchCourse(data.activity_id)
      .then((loaded) => live && setCourse({ course: loaded, defaults: courseToScheduleDefaults(loaded) }))
      .catch((error: unknown) => {
        console.error('Could not load the course to schedule', error);
        if (live) setCourse('failed');
      });
    return () => {
      live = false;
    };
  }, [data.activity_id]);

  if (course === 'failed') return <Result status="error" title="Could not load this course" />;
  if (!course) return <LoadingSkeleton />;
  return <ScheduleForm course={course.course} defaults={course.defaults} close={close} />;
}

interface ScheduleFormProps {
  course: ScheduleCourse;
  defaults: ScheduleDefaults;
  close: () => void;
}

function ScheduleForm({ course, defaults, close }: ScheduleFormProps) {
  const { message } = App.useApp();
  const [overridePrice, setOverridePrice] = useState(false);
  const [setCapacity, setSetCapacity] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { items: locations } = useList<{ locations?: LocationItem[] }, LocationItem>(
    '/api/admin/location',
    (a) => a.locations,
  );
  const { items: instructors } = useList<{ instructors?: InstructorItem[] }, InstructorItem>(
    '/api/admin/instructor',
    (a) => a.instructors,
  );
  const form = useForm<ScheduleFormInput, unknown, EventScheduleFormOutput>({
    resolver: zodResolver(eventScheduleFormSchema),
    defaultValues: defaults.values,
  });
  const { control, handleSubmit, setValue, formState } = form;

  // A toggle turned off blanks its field, so the schema leaves it out of the payload.
  const togglePrice = (on: boolean) => {
    setOverridePrice(on);
    setValue('price', on ? defaults.coursePriceText : '');
  };
  const toggleCapacity = (on: boolean) => {
    setSetCapacity(on);
    setValue('capacity', on ? defaults.courseCapacity : '');
  };

  const submit = handleSubmit(async (payload) => {
    setFailure(null);
    try {
      await scheduleEvent(payload);
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
          <Button onClick={close}>Cancel</Button>
          <Button type="primary" loading={formState.isSubmitting} onClick={() => void submit()}>
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
          <FormField control={control} name="course_name" label="Name">
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
            <Flex gap={8} align="center">
              <Switch checked={overridePrice} onChange={togglePrice} aria-label="Override price" />
              <span>Override price</span>
            </Flex>
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
            <Flex gap={8} align="center">
              <Switch checked={setCapacity} onChange={toggleCapacity} aria-label="Set capacity" />
              <span>Set capacity</span>
            </Flex>
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
              <Flex gap={8} align="center">
                <Switch
                  checked={Boolean(field.value)}
                  onChange={field.onChange}
                  aria-label="Sync with Eventbrite"
                />
                <span>Sync with Eventbrite</span>
              </Flex>
            )}
          </FormField>
        </DrawerSection>
      </Form>
    </DrawerShell>
  );
}
