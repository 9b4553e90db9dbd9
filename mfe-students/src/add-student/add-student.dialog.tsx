import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  PAYMENT_LINK_MESSAGES,
  SCHEDULING_MESSAGES,
  addStudentFormSchema,
  type AddStudentFormInput,
  type AddStudentFormOutput,
} from '@studio/contracts';
import {
  Alert,
  App,
  Button,
  Form,
  FormField,
  Modal,
  isApiError,
  zodResolver,
  type DrawerProps,
} from '@studio/ui';
import { enrollStudent, sendPaymentLink } from './add-student.api';
import { AppointmentAddStudentDialog, type AppointmentCourse } from './appointment-add-student.dialog';
import { StudentPicker } from './student-picker';

export interface AddStudentData {
  event_id?: string;
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
 * Add student (spec 000 §2, §5, §8): pick a student, then enroll directly or send a payment link
 * (the seat is held until the link is paid or expires). On an appointment course, a time too.
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

  const submit = handleSubmit(async ({ student_id, method }) => {
    setFailure(null);
    setBusy(method);
    try {
      if (method === 'invoice') {
        await sendPaymentLink(student_id, target);
        message.success(SCHEDULING_MESSAGES.paymentLinkSent);
      } else {
        await enrollStudent(student_id, target);
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

  const run = (method: Method) => {
    if (busy) return;
    setValue('method', method);
    void submit();
  };

  return (
    <Modal
      open
      title="Add student"
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close}>
          Cancel
        </Button>,
        <Button
          key="invoice"
          loading={busy === 'invoice'}
          disabled={busy === 'enroll'}
          onClick={() => run('invoice')}
        >
          {PAYMENT_LINK_MESSAGES.sendLink}
        </Button>,
        <Button
          key="enroll"
          type="primary"
          loading={busy === 'enroll'}
          disabled={busy === 'invoice'}
          onClick={() => run('enroll')}
        >
          {PAYMENT_LINK_MESSAGES.enrollDirectly}
        </Button>,
      ]}
    >
      <Form layout="vertical" component={false}>
        {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 12 }} /> : null}
        <FormField control={control} name="student_id" label="Student" required>
          {(field, state) => (
            <StudentPicker
              value={field.value}
              onChange={(id) => field.onChange(id ?? '')}
              status={state.error ? 'error' : undefined}
            />
          )}
        </FormField>
      </Form>
    </Modal>
  );
}
