import type { ReactNode } from 'react';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { PAYMENT_LINK_MESSAGES, bookOnLabel, holdingCoversParty, type BookingHolding } from '@studio/contracts';
import { Alert, Button, Form, FormField, Modal, useQuery } from '@studio/ui';
import { coveringQuery } from './add-student.api';
import { StudentPicker } from './student-picker';

export type AddStudentMethod = 'enroll' | 'invoice' | 'holding';

/**
 * The picked student's memberships and packs that can book the course for the party (issue 24), in
 * the written order: Add student's "Book on …" choices. None until a student is picked, or when the
 * read fails (the other choices stay).
 */
export function useBookingChoices(studentId: string, activityId: string | undefined, partySize: number): BookingHolding[] {
  const query = useQuery({ ...coveringQuery(studentId, activityId ?? ''), enabled: Boolean(studentId && activityId) });
  return (query.data?.holdings ?? []).filter((h) => holdingCoversParty(h, partySize));
}

/**
 * The frame both Add student dialogs share (a session's seat, an appointment course's time): the
 * Cancel, "Book on <holding>" (one per membership or pack that can book it), Send payment link and
 * Enroll directly buttons (one busy at a time), the refusal above the fields, and the fields each
 * dialog brings (StudentField first).
 */
export function AddStudentModal({
  busy,
  failure,
  onRun,
  onClose,
  holdings = [],
  children,
}: {
  busy: AddStudentMethod | null;
  failure: string | null;
  /** `holdingId` with method `holding`: the holding chosen. */
  onRun: (method: AddStudentMethod, holdingId?: string) => void;
  onClose: () => void;
  holdings?: BookingHolding[];
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
        ...holdings.map((h) => (
          <Button key={h.holding_id} disabled={busy !== null} onClick={() => onRun('holding', h.holding_id)}>
            {bookOnLabel(h)}
          </Button>
        )),
        <Button
          key="invoice"
          loading={busy === 'invoice'}
          disabled={busy !== null && busy !== 'invoice'}
          onClick={() => onRun('invoice')}
        >
          {PAYMENT_LINK_MESSAGES.sendLink}
        </Button>,
        <Button
          key="enroll"
          type="primary"
          loading={busy === 'enroll'}
          disabled={busy !== null && busy !== 'enroll'}
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
