import { useForm, useWatch, type Control, type Resolver, type UseFormSetValue } from 'react-hook-form';
import {
  COURSE_MESSAGES,
  LEVELS,
  MATERIALS,
  courseCreateFormSchema,
  type CourseCreatePayload,
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
  Radio,
  Select,
  setServerFieldErrors,
  useUnsavedChanges,
  zodResolver,
  type DrawerProps,
  LabeledSwitch,
} from '@studio/ui';
import { alertNewCourse, useCreateCourse } from '../api/courses';
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
import {
  COURSE_BUILDER_FIELDS,
  courseBuilderDefaults,
  type CourseBuilderValues,
} from './course-builder-values';
import { PolicyFields } from './policy-fields';

// The contract's input type is `unknown` where it preprocesses text; the form holds typed values.
const resolver = zodResolver(courseCreateFormSchema) as unknown as Resolver<
  CourseBuilderValues,
  unknown,
  CourseCreatePayload
>;

/** New Course drawer (spec 000 §2): sections in the spec's order, rules from courseCreateFormSchema. */
export function CourseBuilderDrawer({ close }: DrawerProps) {
  const { message } = App.useApp();
  const form = useForm<CourseBuilderValues, unknown, CourseCreatePayload>({
    resolver,
    defaultValues: courseBuilderDefaults(),
  });
  const { control, setValue, setError, formState } = form;
  const sections = control as unknown as Control<CourseSectionValues>;
  // Closing with unsaved changes asks "Discard unsaved changes?" first (the drawer host consults this).
  useUnsavedChanges(form.formState.isDirty);
  const [priceType, singleParty, activityType, cancelPolicyId, reschedulePolicyId] = useWatch({
    control,
    name: ['priceType', 'single_party', 'activity_type', 'cancel_policy_id', 'reschedule_policy_id'],
  });

  const create = useCreateCourse();
  const onSubmit = form.handleSubmit(async (payload) => {
    try {
      await create.mutateAsync(payload);
      message.success(COURSE_MESSAGES.created);
      void alertNewCourse(payload.name);
      close();
    } catch (error) {
      console.error('Creating the course failed', error);
      message.error(COURSE_MESSAGES.createFailed);
      setServerFieldErrors(error, setError, COURSE_BUILDER_FIELDS);
    }
  });

  const toggleSingleParty = (on: boolean) => {
    setValue('single_party', on);
    // Appointment mode needs single party (spec 000 §4): turning it off falls back to scheduled.
    if (!on) setValue('activity_type', 'scheduled');
  };

  const changePriceType = (next: PriceType) => {
    setValue('priceType', next);
    if (next === 'free') setValue('price', '', { shouldValidate: formState.isSubmitted });
  };

  return (
    <FormDrawer
      title="New Course"
      onSubmit={onSubmit}
      close={close}
      submitting={formState.isSubmitting}
      submitLabel="Create course"
    >
      <CourseGeneralSection control={sections} />

      <DrawerSection title="Pricing">
        <CoursePriceFields control={sections} priceType={priceType} onPriceTypeChange={changePriceType} />
      </DrawerSection>

      <DrawerSection title="Media">
        <FormField control={control} name="images" label="Images" required>
          {(field) => (
            <MediaField
              value={field.value}
              onChange={(images) => setValue('images', images, { shouldValidate: formState.isSubmitted })}
            />
          )}
        </FormField>
      </DrawerSection>

      <CourseLocationAndInstructorSections control={sections} />

      <DrawerSection title="Details">
        <FormField control={control} name="material" label="Category" required>
          {(field, state) => (
            <Select
              id="material"
              aria-label="Category"
              status={state.error ? 'error' : undefined}
              value={field.value}
              onChange={field.onChange}
              placeholder="Select a category"
              options={MATERIALS.map((m) => ({ value: m, label: m }))}
            />
          )}
        </FormField>
        <FormField control={control} name="level" label="Level" required>
          {(field, state) => (
            <Select
              id="level"
              aria-label="Level"
              status={state.error ? 'error' : undefined}
              value={field.value}
              onChange={field.onChange}
              placeholder="Select a level"
              options={LEVELS.map((l) => ({ value: l, label: l }))}
            />
          )}
        </FormField>
        <NumberField control={control} name="capacity" label="Capacity" required />
        <FormField control={control} name="tools" label="Tools">
          {(field) => <Input.TextArea {...field} id="tools" rows={2} />}
        </FormField>
      </DrawerSection>

      <DrawerSection title="Email confirmation">
        <FormField control={control} name="auto_email" label="Confirmation email text">
          {(field) => <Input.TextArea {...field} id="auto_email" rows={3} />}
        </FormField>
      </DrawerSection>

      <CheckoutFormSection control={sections} />

      <DrawerSection title="Intake waiver">
        <FormField control={control} name="selected_waiver" label="Waiver">
          {(field) => <WaiverPicker id="selected_waiver" value={field.value} onChange={field.onChange} />}
        </FormField>
      </DrawerSection>

      <DrawerSection title="Cancellations and Rescheduling">
        <PolicyFields
          cancelPolicyId={cancelPolicyId}
          reschedulePolicyId={reschedulePolicyId}
          setValue={setValue}
        />
      </DrawerSection>

      <DrawerSection title="Course Type">
        <FormField control={control} name="single_party" extra="Stops new enrolments after one party.">
          {() => (
            <LabeledSwitch label="Single party course" checked={singleParty} onChange={toggleSingleParty} />
          )}
        </FormField>
        <FormField control={control} name="activity_type" label="Type">
          {(field) => (
            <Radio.Group
              id="activity_type"
              value={field.value}
              onChange={(e) => field.onChange(e.target.value)}
              options={[
                { value: 'scheduled', label: 'Scheduled (you set the dates)' },
                // Students set the time only for single party courses (spec 000 §2, §4).
                {
                  value: 'appointment',
                  label: 'Appointment (students set the time)',
                  disabled: !singleParty,
                },
              ]}
            />
          )}
        </FormField>
        {activityType === 'scheduled' ? (
          <CourseDefaultsFields control={control as unknown as Control<CourseDefaultsValues>} />
        ) : null}
      </DrawerSection>

      {activityType === 'appointment' ? (
        <DrawerSection title="Scheduling settings">
          <AppointmentSchedulingFields control={control as unknown as Control<SchedulingValues>} />
          <OwnHoursField
            control={control as unknown as Control<SchedulingValues>}
            setValue={setValue as unknown as UseFormSetValue<SchedulingValues>}
          />
        </DrawerSection>
      ) : null}
    </FormDrawer>
  );
}
