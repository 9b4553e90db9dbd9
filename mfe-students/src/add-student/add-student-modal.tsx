import type { ReactNode } from 'react';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { PAYMENT_LINK_MESSAGES } from '@studio/contracts';
import { Alert, Button, Form, FormField, Modal } from '@studio/ui';
import { StudentPicker } from './student-picker';

export type AddStudentMethod = 'enroll' | 'invoice';

/**
 * The frame both Add student dialogs share (a session's seat, an appointment course's time): the
 * Cancel, Send payment link and Enroll directly buttons (one busy at a time), the refusal above the
 * fields, and the fields each dialog brings (StudentField first).
 */
export function AddStudentModal({
  busy,
  failure,
  onRun,
  onClose,
  children,
}: {
  busy: AddStudentMethod | null;
  failure: string | null;
  onRun: (method: AddStudentMethod) => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      open
      title="Add student"
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button
          key="invoice"
          loading={busy === 'invoice'}
          disabled={busy === 'enroll'}
          onClick={() => onRun('invoice')}
        >
          {PAYMENT_LINK_MESSAGES.sendLink}
        </Button>,
        <Button
          key="enroll"
          type="primary"
          loading={busy === 'enroll'}
          disabled={busy === 'invoice'}
          onClick={() => onRun('enroll')}
        >
          {PAYMENT_LINK_MESSAGES.enrollDirectly}
        </Button>,
      ]}
    >
      <Form layout="vertical" component={false}>
        {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 12 }} /> : null}
        {children}
      </Form>
    </Modal>
  );
}

/** The student picked for either dialog (the form's `student_id`). */
export function StudentField<T extends FieldValues & { student_id: string }>({
  control,
}: {
  control: Control<T>;
}) {
  return (
    <FormField control={control} name={'student_id' as FieldPath<T>} label="Student" required>
      {(field, state) => (
        <StudentPicker
          value={field.value as string}
          onChange={(id) => field.onChange(id ?? '')}
          status={state.error ? 'error' : undefined}
        />
      )}
    </FormField>
  );
}
