import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  SCHEDULING_MESSAGES,
  addStudentFormSchema,
  type AddStudentFormInput,
  type AddStudentFormOutput,
} from '@studio/contracts';
import { Alert, App, Form, FormField, Modal, isApiError, zodResolver, type DrawerProps } from '@studio/ui';
import { enrollStudent } from './add-student.api';
import { StudentPicker } from './student-picker';

export interface AddStudentData {
  event_id?: string;
  appointment_id?: string;
  /** Runs after the student is added (the caller reloads its grid and seats). */
  onDone?: () => void;
}

/**
 * Add student (spec 000 §2, §5, §8): pick a student and enroll directly. The payment-link option
 * comes with the orders issue and is not offered yet.
 */
export function AddStudentDialog({ data, close }: DrawerProps<AddStudentData>) {
  const { message } = App.useApp();
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, formState } = useForm<AddStudentFormInput, unknown, AddStudentFormOutput>({
    resolver: zodResolver(addStudentFormSchema),
    defaultValues: { student_id: '', method: 'enroll' },
  });

  const submit = handleSubmit(async ({ student_id }) => {
    setFailure(null);
    try {
      await enrollStudent(
        student_id,
        data.appointment_id ? { appointment_id: data.appointment_id } : { event_id: data.event_id },
      );
      message.success(SCHEDULING_MESSAGES.studentAdded);
      data.onDone?.();
      close();
    } catch (error) {
      message.error(SCHEDULING_MESSAGES.addFailed);
      // Already enrolled, session full: the server says which.
      setFailure(
        isApiError(error) && error.body?.message ? error.body.message : SCHEDULING_MESSAGES.addFailed,
      );
    }
  });

  return (
    <Modal
      open
      title="Add student"
      okText="Enroll student"
      confirmLoading={formState.isSubmitting}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
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
