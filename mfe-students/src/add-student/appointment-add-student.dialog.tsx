import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  MAX_APPOINTMENT_GUESTS,
  SCHEDULING_MESSAGES,
  appointmentAddStudentFormSchema,
  type AppointmentAddStudentFormInput,
  type AppointmentAddStudentFormOutput,
  type AppointmentOut,
} from '@studio/contracts';
import {
  App,
  FormField,
  NumberInput,
  isApiError,
  useQueryClient,
  zodResolver,
  type DrawerProps,
} from '@studio/ui';
import { enrollStudent, sendPaymentLink } from './add-student.api';
import { cancelAppointment, holdAppointment, refreshAppointments } from './appointment.api';
import { SlotPicker } from './slot-picker';
import { AddStudentModal, StudentField, useBookingChoices } from './add-student-modal';

/** What Add student needs of an appointment course. */
export interface AppointmentCourse {
  activity_id: string;
  /** The course location's IANA zone. */
  zone: string;
  /** Days ahead a time may be booked. */
  window_days: number;
}

export interface AppointmentAddStudentData {
  appointment: AppointmentCourse;
  /** Runs after the student is added or the link sent (the caller reloads its lists). */
  onDone?: () => void;
}

type Method = AppointmentAddStudentFormOutput['method'];

const serverMessage = (error: unknown) =>
  isApiError(error) && error.body?.message ? error.body.message : SCHEDULING_MESSAGES.addFailed;

/**
 * Add student on an appointment course (issue 22): a student, a day and a free time of it (in the
 * location's zone), guests; then Enroll directly or Send payment link. The time is held for the
 * student first (POST …/appointments), then enrolled or invoiced with `{appointment_id}`. A time
 * taken meanwhile is refused with the API's message and the list of times reloads; when the hold
 * succeeded but enroll or invoice is refused, the hold is released so the time is free again.
 */
export function AppointmentAddStudentDialog({ data, close }: DrawerProps<AppointmentAddStudentData>) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const course = data.appointment;
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<Method | null>(null);
  const { control, handleSubmit, setValue } = useForm<
    AppointmentAddStudentFormInput,
    unknown,
    AppointmentAddStudentFormOutput
  >({
    resolver: zodResolver(appointmentAddStudentFormSchema),
    defaultValues: { student_id: '', starts_at: '', guest_count: 0, method: 'enroll' },
  });
  const [studentId, guests] = useWatch({ control, name: ['student_id', 'guest_count'] });
  // A pack needs a credit per person of the party; a membership books the party once.
  const holdings = useBookingChoices(studentId, course.activity_id, 1 + (Number(guests) || 0));

  const refused = (error: unknown) => {
    message.error(SCHEDULING_MESSAGES.addFailed);
    setFailure(serverMessage(error));
  };

  const submit = handleSubmit(async ({ student_id, starts_at, guest_count, method, holding_id }) => {
    setFailure(null);
    setBusy(method);
    let held: AppointmentOut;
    try {
      held = await holdAppointment(course.activity_id, { student_id, starts_at, guest_count });
    } catch (error) {
      // Taken meanwhile, or no longer offered: the times read again and the admin picks another.
      if (isApiError(error) && error.status === 409) {
        setValue('starts_at', '');
        void refreshAppointments(queryClient);
      }
      refused(error);
      setBusy(null);
      return;
    }
    try {
      if (method === 'invoice') {
        await sendPaymentLink(student_id, { appointment_id: held.id });
        message.success(SCHEDULING_MESSAGES.paymentLinkSent);
      } else {
        await enrollStudent(student_id, { appointment_id: held.id, ...(method === 'holding' ? { holding_id } : {}) });
        message.success(SCHEDULING_MESSAGES.studentAdded);
      }
      void refreshAppointments(queryClient);
      data.onDone?.();
      close();
    } catch (error) {
      // The hold would keep the time for nothing until it expires: release it at once.
      await cancelAppointment(held.id, { notify: false }).catch((e: unknown) =>
        console.error('Could not release the held time', e),
      );
      void refreshAppointments(queryClient);
      refused(error);
    } finally {
      setBusy(null);
    }
  });

  const run = (method: Method, holdingId?: string) => {
    if (busy) return;
    setValue('method', method);
    setValue('holding_id', holdingId);
    void submit();
  };

  return (
    <AddStudentModal busy={busy} failure={failure} onRun={run} onClose={close} holdings={holdings}>
      <StudentField control={control} />
      <FormField control={control} name="starts_at" label="Day and time" required>
        {(field, state) => (
          <SlotPicker
            id="starts_at"
            activityId={course.activity_id}
            zone={course.zone}
            windowDays={course.window_days}
            value={field.value}
            onChange={field.onChange}
            status={state.error ? 'error' : undefined}
          />
        )}
      </FormField>
      <FormField
        control={control}
        name="guest_count"
        label="Guests"
        extra={`Besides the student, at most ${MAX_APPOINTMENT_GUESTS}.`}
      >
        {(field, state) => (
          <NumberInput
            id="guest_count"
            value={field.value}
            onChange={(v) => field.onChange(v as number)}
            onBlur={field.onBlur}
            status={state.error ? 'error' : undefined}
          />
        )}
      </FormField>
    </AddStudentModal>
  );
}
