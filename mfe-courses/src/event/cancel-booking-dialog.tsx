import { useState } from 'react';
import { MANAGE_MESSAGES, centsToAmountText, formatCents, parseAmountToCents } from '@studio/contracts';
import { Alert, App, Form, Input, Modal, Typography, serverMessage, useDateFormat } from '@studio/ui';
import { useBookingTerms, useCancelBooking, type BookingRef } from '../api/bookings';

interface CancelBookingDialogProps {
  /** The session's enrollment or the appointment. */
  booking: BookingRef;
  /** The session whose grid reads again after the cancel (none for an appointment: `onDone` refreshes). */
  eventId: string | null;
  studentName: string;
  onClose: () => void;
  onDone: () => void;
}

export const CANCEL_BOOKING_TITLE = 'Cancel booking';
const AMOUNT_INVALID = 'Amount must be a valid number';

/**
 * Cancel booking (issue 23), from a session's enrollment row or an appointment of the Booking card: the course's cancellation policy applied
 * now ("Firm: 50% refund ($45.00) — 12 days before start"), refunded to the booking's payment. An
 * owner may refund any amount from $0.00 to what is left; staff refund the policy's figure.
 */
export function CancelBookingDialog({ booking, eventId, studentName, onClose, onDone }: CancelBookingDialogProps) {
  const { message } = App.useApp();
  const terms = useBookingTerms(booking);
  const cancel = useCancelBooking(booking, eventId);
  const format = useDateFormat();
  // What the owner typed; until they type, the field shows the policy's figure (derived, so the first
  // paint with the terms already holds it: no empty, invalid field for a frame).
  const [typed, setTyped] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const data = terms.data;
  const amount = typed ?? (data ? centsToAmountText(data.cancel.refund_cents) : '');

  const cents = parseAmountToCents(amount);
  const amountError = !data
    ? null
    : cents === null
      ? AMOUNT_INVALID
      : cents > data.refundable_cents
        ? MANAGE_MESSAGES.refundTooLarge(data.refundable_cents)
        : null;

  const submit = async () => {
    if (!data || amountError || cents === null) return;
    try {
      await cancel.mutateAsync(data.can_override && cents !== data.cancel.refund_cents ? { refund_amount: cents } : {});
      message.success(MANAGE_MESSAGES.cancelledDone);
      onDone();
    } catch (failure) {
      setServerError(serverMessage(failure, MANAGE_MESSAGES.cancelledDone));
    }
  };

  return (
    <Modal
      open
      title={CANCEL_BOOKING_TITLE}
      okText="Cancel booking"
      okButtonProps={{ danger: true, disabled: !data || Boolean(amountError) || data.status === 'cancelled' }}
      cancelText="Keep booking"
      confirmLoading={cancel.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {terms.isError ? <Alert type="error" showIcon message={serverMessage(terms.error, 'The booking could not be loaded.')} /> : null}
      {data ? (
        <Form layout="vertical" component={false}>
          <Typography.Paragraph>
            {studentName}: {data.course_name}, {format.dateTime(data.starts_at, data.timezone)} (
            {data.kind === 'appointment'
              ? data.party_size === 1
                ? '1 person'
                : `${data.party_size} people`
              : data.party_size === 1
                ? '1 seat'
                : `${data.party_size} seats`}
            ). Paid {formatCents(data.paid_cents)}.
          </Typography.Paragraph>
          <Typography.Paragraph strong data-testid="cancel-policy-figure">
            {data.cancel.figure}
          </Typography.Paragraph>
          {data.can_override ? (
            <Form.Item
              label="Refund amount"
              htmlFor="cancel-refund-amount"
              help={amountError ?? `From $0.00 to ${formatCents(data.refundable_cents)}; the policy gives ${formatCents(data.cancel.refund_cents)}.`}
              validateStatus={amountError ? 'error' : undefined}
            >
              <Input id="cancel-refund-amount" prefix="$" inputMode="decimal" value={amount} onChange={(e) => setTyped(e.target.value)} />
            </Form.Item>
          ) : (
            <Typography.Paragraph>
              Refund: {formatCents(data.cancel.refund_cents)}. Only an owner can refund another amount.
            </Typography.Paragraph>
          )}
          {serverError ? <Alert type="error" showIcon message={serverError} /> : null}
        </Form>
      ) : null}
    </Modal>
  );
}
