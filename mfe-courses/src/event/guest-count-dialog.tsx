import { useState } from 'react';
import { SCHEDULING_MESSAGES, guestCountSchema } from '@studio/contracts';
import { App, Form, Input, Modal, serverMessage } from '@studio/ui';
import { useSetGuestCount, type EnrollmentRow } from '../api/events';

interface GuestCountDialogProps {
  /** The event the enrollment belongs to: its grid and seat count read again after a save. */
  eventId: string;
  enrollment: EnrollmentRow;
  onClose: () => void;
  onSaved: () => void;
}

/** Edit guest count (spec 001 §5): a whole number, 0 or higher; empty disables the button. */
export function GuestCountDialog({ eventId, enrollment, onClose, onSaved }: GuestCountDialogProps) {
  const { message } = App.useApp();
  const [text, setText] = useState(String(enrollment.guestCount ?? 0));
  const guests = useSetGuestCount(eventId);
  const [serverError, setServerError] = useState<string | null>(null);
  const parsed = guestCountSchema.safeParse({ guestCount: text });
  const error = text.trim() !== '' && !parsed.success ? SCHEDULING_MESSAGES.guestCountMin : serverError;

  const save = async () => {
    if (!parsed.success) return;
    try {
      await guests.mutateAsync({
        enrollmentId: enrollment.enrollment_id,
        guestCount: parsed.data.guestCount,
      });
      message.success(SCHEDULING_MESSAGES.guestCountUpdated);
      onSaved();
    } catch (failure) {
      // 409: not enough seats; the server's message says how many are left.
      message.error(SCHEDULING_MESSAGES.guestCountFailed);
      setServerError(serverMessage(failure, SCHEDULING_MESSAGES.guestCountFailed));
    }
  };

  const name = `${enrollment.Student?.first_name ?? ''} ${enrollment.Student?.last_name ?? ''}`.trim();
  return (
    <Modal
      open
      title={`Guests of ${name}`}
      okText="Save"
      okButtonProps={{ disabled: text.trim() === '' || !parsed.success }}
      confirmLoading={guests.isPending}
      onOk={() => void save()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical" component={false}>
        <Form.Item
          label="Guest count"
          htmlFor="guest-count"
          help={error}
          validateStatus={error ? 'error' : undefined}
        >
          <Input
            id="guest-count"
            inputMode="numeric"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setServerError(null);
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
