import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  SCHEDULING_MESSAGES,
  addStudentFormSchema,
  type AddStudentFormInput,
  type AddStudentFormOutput,
} from '@studio/contracts';
import { App, isApiError, zodResolver, type DrawerProps } from '@studio/ui';
import { enrollStudent, sendPaymentLink } from './add-student.api';
import { AppointmentAddStudentDialog, type AppointmentCourse } from './appointment-add-student.dialog';
import { AddStudentModal, StudentField, useBookingChoices } from './add-student-modal';

export interface AddStudentData {
  event_id?: string;
  /** The session's course: offers "Book on <membership or pack>" when the student holds one that covers it (issue 24). */
  activity_id?: string;
  appointment_id?: string;
  /**
   * An appointment course (issue 22): the dialog also picks a free time and guests, holds that time
   * for the student, then enrolls or sends the payment link with the held appointment.
   */
  appointment?: AppointmentCourse;
  /** Runs after the student is added or the link sent (the caller reloads its grid and seats). */
  onDone?: () => void;
}

type Method = AddStudentFormOutput['method'];

/**
 * Add student (spec 000 §2, §5, §8): pick a student, then enroll directly, send a payment link
 * (the seat is held until the link is paid or expires), or book on the student's membership or pack
 * that covers the course (issue 24). On an appointment course, a time too.
 */
export function AddStudentDialog(props: DrawerProps<AddStudentData>) {
  return props.data.appointment ? (
    <AppointmentAddStudentDialog
      data={{ ...props.data, appointment: props.data.appointment }}
      close={props.close}
    />
  ) : (
    <SessionAddStudentDialog {...props} />
  );
}

/** Add student on a session (or an appointment already held: `appointment_id`). */
function SessionAddStudentDialog({ data, close }: DrawerProps<AddStudentData>) {
  const { message } = App.useApp();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<Method | null>(null);
  const { control, handleSubmit, setValue } = useForm<AddStudentFormInput, unknown, AddStudentFormOutput>({
    resolver: zodResolver(addStudentFormSchema),
    defaultValues: { student_id: '', method: 'enroll' },
  });
  const target = data.appointment_id ? { appointment_id: data.appointment_id } : { event_id: data.event_id };
  const holdings = useBookingChoices(useWatch({ control, name: 'student_id' }), data.activity_id, 1);

  const submit = handleSubmit(async ({ student_id, method, holding_id }) => {
    setFailure(null);
    setBusy(method);
    try {
      if (method === 'invoice') {
        await sendPaymentLink(student_id, target);
        message.success(SCHEDULING_MESSAGES.paymentLinkSent);
      } else {
        await enrollStudent(student_id, method === 'holding' ? { ...target, holding_id } : target);
        message.success(SCHEDULING_MESSAGES.studentAdded);
      }
      data.onDone?.();
      close();
    } catch (error) {
      message.error(SCHEDULING_MESSAGES.addFailed);
      // Already enrolled, session full, a free session: the server says which.
      setFailure(
        isApiError(error) && error.body?.message ? error.body.message : SCHEDULING_MESSAGES.addFailed,
      );
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
    </AddStudentModal>
  );
}
