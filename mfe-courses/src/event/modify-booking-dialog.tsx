import { useState } from 'react';
import { MANAGE_MESSAGES } from '@studio/contracts';
import { Alert, App, Checkbox, Form, Modal, Select, Typography, serverMessage, useDateFormat } from '@studio/ui';
import { useBookingTerms, useRescheduleBooking } from '../api/bookings';
import type { EnrollmentRow } from '../api/events';

interface BookingDialogProps {
  eventId: string;
  enrollment: EnrollmentRow;
  onClose: () => void;
  onDone: () => void;
}

export const MODIFY_BOOKING_TITLE = 'Modify booking';

/**
 * Modify booking (issue 23), from the enrollment's row: to another session of the same course with
 * room for the party, free within the rescheduling policy (shown); past it, an owner may override
 * and staff cannot.
 */
export function ModifyBookingDialog({ eventId, enrollment, onClose, onDone }: BookingDialogProps) {
  const { message } = App.useApp();
  const terms = useBookingTerms({ kind: 'enrollment', id: enrollment.enrollment_id });
  const move = useRescheduleBooking(eventId, enrollment.enrollment_id);
  const format = useDateFormat();
  const [chosen, setTarget] = useState<string | undefined>();
  const [override, setOverride] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const data = terms.data;
  // Until the admin picks one, the first session it can move to (derived: present on the first paint).
  const target = chosen ?? data?.move_targets[0]?.event_id;

  // "Contact the studio": the studio is who moves it, so it is within the policy for the admin.
  const contact = data?.reschedule.policy.name === MANAGE_MESSAGES.contactStudio;
  const past = Boolean(data) && !data!.reschedule.allowed && !contact;
  const blocked = past && (!data!.can_override || !override);

  const submit = async () => {
    if (!target || blocked) return;
    try {
      await move.mutateAsync({ event_id: target, ...(past ? { override: true } : {}) });
      message.success(MANAGE_MESSAGES.rescheduledDone);
      onDone();
    } catch (failure) {
      setServerError(serverMessage(failure, MANAGE_MESSAGES.rescheduledDone));
    }
  };

  return (
    <Modal
      open
      title={MODIFY_BOOKING_TITLE}
      okText="Move booking"
      okButtonProps={{ disabled: !target || blocked }}
      confirmLoading={move.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {terms.isError ? <Alert type="error" showIcon message={serverMessage(terms.error, 'The booking could not be loaded.')} /> : null}
      {data ? (
        <Form layout="vertical" component={false}>
          <Typography.Paragraph>
            {data.course_name}, {format.dateTime(data.starts_at, data.timezone)} ({data.party_size === 1 ? '1 seat' : `${data.party_size} seats`}).
          </Typography.Paragraph>
          <Typography.Paragraph strong data-testid="reschedule-policy-figure">
            {data.reschedule.figure}
          </Typography.Paragraph>
          {data.move_targets.length === 0 ? (
            <Alert type="info" showIcon message="No other session of this course has room for this party." />
          ) : (
            <Form.Item label="Move to" htmlFor="modify-booking-target">
              <Select
                id="modify-booking-target"
                value={target}
                onChange={setTarget}
                options={data.move_targets.map((s) => ({
                  value: s.event_id,
                  label: `${format.dateTime(s.starts_at, data.timezone)} (${s.seats_left} ${s.seats_left === 1 ? 'seat' : 'seats'} left)`,
                }))}
              />
            </Form.Item>
          )}
          {past ? (
            data.can_override ? (
              <Checkbox checked={override} onChange={(e) => setOverride(e.target.checked)}>
                Override the policy ({data.reschedule.policy.rule})
              </Checkbox>
            ) : (
              <Alert type="warning" showIcon message={`${MANAGE_MESSAGES.rescheduleNotAllowed(data.reschedule.policy.rule)} ${MANAGE_MESSAGES.ownerOnly}`} />
            )
          ) : null}
          {serverError ? <Alert type="error" showIcon message={serverError} /> : null}
        </Form>
      ) : null}
    </Modal>
  );
}
