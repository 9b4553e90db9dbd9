import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch, type Control, type Resolver, type UseFormSetValue } from 'react-hook-form';
import {
  CATEGORIES,
  COURSE_MESSAGES,
  LEVELS,
  courseUpdateFormSchema,
  keepWholeDays,
  type CourseUpdatePayload,
  type PriceType,
} from '@studio/contracts';
import {
  App,
  DrawerSection,
  FormDrawer,
  FormField,
  Input,
  MediaField,
  NumberField,
  QueryGuard,
  Select,
  Tag,
  courseQueries,
  setServerFieldErrors,
  useQuery,
  useSkeletonDelay,
  useUnsavedChanges,
  zodResolver,
  type CourseDetail,
  type DrawerProps,
} from '@studio/ui';
import { useUpdateCourse } from '../api/courses';
import type {
  CourseDefaultsValues,
  CourseSectionValues,
  SchedulingValues,
} from '../course/course-form-values';
import {
  CheckoutFormSection,
  CourseGeneralSection,
  CourseLocationAndInstructorSections,
  CoursePriceFields,
} from '../course/course-sections';
import { WaiverPicker } from '../course/reference-selects';
import { OwnHoursField } from '../course/own-hours-field';
import { AppointmentSchedulingFields, CourseDefaultsFields } from '../course/scheduling-fields';
import { courseToEditValues, EDIT_COURSE_FIELDS, type EditCourseValues } from './edit-course-values';
import { SyncSettings } from './sync-settings';
import { useImageAutosave } from './use-image-autosave';

export interface EditCourseDrawerData {
  activity_id: string;
}

const contractResolver = zodResolver(courseUpdateFormSchema) as unknown as Resolver<
  EditCourseValues,
  unknown,
  CourseUpdatePayload
>;
/** Days and days-apart are sent only when whole numbers (spec 001 §5): others are left out, not refused. */
const resolver: Resolver<EditCourseValues, unknown, CourseUpdatePayload> = (values, context, options) =>
  contractResolver(keepWholeDays(values), context, options);

/** Loads the course, then shows the form (spec 001 §2: Edit Course panel). */
export function EditCourseDrawer({ data, close }: DrawerProps<EditCourseDrawerData>) {
  const waiting = useSkeletonDelay();
  const query = useQuery({
    ...courseQueries.detail(data.activity_id),
    // Read again on open even when the course page's copy is still fresh (staleTime), or
    // isFetchedAfterMount below never turns true and the drawer stays a skeleton.
    refetchOnMount: 'always',
  });
  // The form starts from a fresh read, never from a cached copy another drawer may have changed.
  return (
    <QueryGuard
      query={query}
      title="Could not load this course"
      pending={!query.isFetchedAfterMount || waiting}
    >
      {(course) => <EditCourseForm course={course} close={close} />}
    </QueryGuard>
  );
}

function EditCourseForm({ course, close }: { course: CourseDetail; close: () => void }) {
  const { message } = App.useApp();
  const update = useUpdateCourse(course.activity_id);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<EditCourseValues, unknown, CourseUpdatePayload>({
    resolver,
    defaultValues: courseToEditValues(course),
  });
  const { control, setValue, setError, formState } = form;
  const sections = control as unknown as Control<CourseSectionValues>;
  // Closing with unsaved changes asks "Discard unsaved changes?" first (the drawer host consults this).
  useUnsavedChanges(form.formState.isDirty);
  const [sync, eventId, priceType, price] = useWatch({
    control,
    name: ['sync_with_eventbrite', 'eventbrite_event_id', 'priceType', 'price'],
  });
  // A new price is for sessions scheduled from now on (issue 25: owners expected it to reach the
  // sessions already scheduled, and nothing said it does not).
  const openedPrice = useRef(form.getValues('price'));
  const priceNote = course.has_events && price !== openedPrice.current ? COURSE_MESSAGES.sessionsKeepPrice : undefined;
  const saveImages = useImageAutosave(course.activity_id, form);
  // Images save at once (spec 001 §7); closing without saving (Cancel, ✕, Discard) puts back the
  // images the drawer opened with, so a removal is undone like any other edit (issue 25: Cancel
  // left it removed). On unmount, so every way of closing does it.
  const openedImages = useRef(form.getValues('images'));
  const submitted = useRef(false);
  const restore = useRef<() => void>(() => undefined);
  restore.current = () => {
    if (submitted.current) return;
    const now = form.getValues('images');
    const opened = openedImages.current;
    if (now.length !== opened.length || now.some((url, i) => url !== opened[i]))
      void saveImages(opened).then(() => message.info(COURSE_MESSAGES.imagesRestored));
  };
  useEffect(() => () => restore.current(), []);

  const onSubmit = form.handleSubmit(async (body) => {
    setFormError(null);
    try {
      await update.mutateAsync(body);
      submitted.current = true;
      message.success(COURSE_MESSAGES.updated);
      close();
    } catch (error) {
      console.error('Updating the course failed', error);
      message.error(COURSE_MESSAGES.updateFailed);
      setServerFieldErrors(error, setError, EDIT_COURSE_FIELDS);
      setFormError(COURSE_MESSAGES.formError);
    }
  });

  // A free course has no price; turning a course free or standard starts the price afresh.
  const changePriceType = (next: PriceType) => {
    setValue('priceType', next);
    setValue('price', '', { shouldValidate: formState.isSubmitted });
  };

  // Spec 001 §2: the panel badge counts any event.
  const badge = course.has_events ? <Tag color="green">Listed</Tag> : <Tag>Unlisted</Tag>;

  return (
    <FormDrawer
      title="Edit Course"
      extra={badge}
      onSubmit={onSubmit}
      close={close}
      submitting={formState.isSubmitting}
      formError={formError}
    >
      <CourseGeneralSection control={sections} />

      <DrawerSection title="Media">
        <FormField control={control} name="images" label="Images" required>
          {(field) => <MediaField value={field.value} onChange={(images) => void saveImages(images)} />}
        </FormField>
      </DrawerSection>

      <DrawerSection title="Details">
        <CoursePriceFields
          control={sections}
          priceType={priceType}
          onPriceTypeChange={changePriceType}
          priceNote={priceNote}
        />
        <NumberField control={control} name="capacity" label="Capacity" required />
        <FormField control={control} name="level" label="Difficulty" required>
          {(field, state) => (
            <Select
              id="level"
              aria-label="Difficulty"
              status={state.error ? 'error' : undefined}
              value={field.value}
              onChange={field.onChange}
              placeholder="Select a difficulty"
              options={LEVELS.map((l) => ({ value: l, label: l }))}
            />
          )}
        </FormField>
        <FormField control={control} name="category_id" label="Material" required>
          {(field, state) => (
            <Select<number>
              id="category_id"
              aria-label="Material"
              status={state.error ? 'error' : undefined}
              value={field.value}
              onChange={field.onChange}
              placeholder="Select a material"
              options={CATEGORIES.map((c) => ({ value: c.category_id, label: c.name }))}
            />
          )}
        </FormField>
      </DrawerSection>

      <CourseLocationAndInstructorSections control={sections} />

      <DrawerSection title="Email confirmation">
        <FormField control={control} name="autoEmail" label="Confirmation email text">
          {(field) => <Input.TextArea {...field} id="autoEmail" rows={3} />}
        </FormField>
      </DrawerSection>

      <CheckoutFormSection control={sections} />

      <DrawerSection title="Intake waiver">
        <FormField control={control} name="required_waiver_id" label="Waiver">
          {(field) => <WaiverPicker id="required_waiver_id" value={field.value} onChange={field.onChange} />}
        </FormField>
      </DrawerSection>

      <DrawerSection title="Sync settings">
        <SyncSettings
          sync={sync}
          onSyncChange={(on) => setValue('sync_with_eventbrite', on)}
          eventId={eventId}
          onEventChange={(id) =>
            setValue('eventbrite_event_id', id, { shouldValidate: formState.isSubmitted })
          }
          eventError={formState.errors.eventbrite_event_id?.message}
        />
      </DrawerSection>

      <DrawerSection title="Scheduling settings">
        <CourseDefaultsFields control={control as unknown as Control<CourseDefaultsValues>} />
        {course.activity_type === 'appointment' ? (
          <>
            <AppointmentSchedulingFields control={control as unknown as Control<SchedulingValues>} />
            <OwnHoursField
              control={control as unknown as Control<SchedulingValues>}
              setValue={setValue as unknown as UseFormSetValue<SchedulingValues>}
            />
          </>
        ) : null}
      </DrawerSection>
    </FormDrawer>
  );
}
