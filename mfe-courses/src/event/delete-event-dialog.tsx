import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  COURSE_MESSAGES,
  REFUND_DESTINATION_LABELS,
  REFUND_DESTINATIONS,
  SCHEDULING_MESSAGES,
  SESSION_CANCEL_MESSAGES,
  SESSION_CANCEL_REASON_MAX,
  SESSION_CANCEL_REFUNDS,
  SESSION_CANCEL_REFUND_LABELS,
  courseDetailPath,
  sessionCancelFormSchema,
  type SessionCancelFormInput,
} from '@studio/contracts';
import {
  Alert,
  App,
  Form,
  FormField,
  Input,
  Modal,
  Radio,
  Typography,
  isApiError,
  serverMessage,
  setServerFieldErrors,
  zodResolver,
} from '@studio/ui';
import { useCancelEvent, useDeleteEvent, type EventDetail } from '../api/events';
import { navigateTo } from './navigate';

interface DeleteEventDialogProps {
  event: EventDetail;
  onClose: () => void;
  /** Closes the drawer: navigating to the page already shown is no route change, so it would stay. */
  onDeleted: () => void;
  /** The session was cancelled with its students: the drawer stays and shows the progress. */
  onCancelled?: () => void;
}

/**
 * The event drawer's "Cancel course". A session nobody has a seat in is deleted (spec 001 §4, §8;
 * after a delete the admin lands on the course's page). A session with students or seats held by
 * payment links is cancelled instead (issue 23): refund everyone in full or no refund, and the
 * reason every student is mailed.
 */
export function DeleteEventDialog({ event, onClose, onDeleted, onCancelled }: DeleteEventDialogProps) {
  const taken = event.enrolled_count > 0 || event.seats_taken > 0;
  return taken ? (
    <CancelSessionDialog event={event} onClose={onClose} onCancelled={onCancelled ?? onClose} />
  ) : (
    <DeleteEmptySession event={event} onClose={onClose} onDeleted={onDeleted} />
  );
}

function DeleteEmptySession({ event, onClose, onDeleted }: Omit<DeleteEventDialogProps, 'onCancelled'>) {
  const { message } = App.useApp();
  const deletion = useDeleteEvent(event.event_id);
  const [blocked, setBlocked] = useState(false);

  const remove = async () => {
    try {
      const answer = await deletion.mutateAsync();
      message.success(COURSE_MESSAGES.sessionDeleted);
      onClose();
      onDeleted();
      navigateTo(answer.redirect_to || courseDetailPath(answer.activity_id ?? event.activity_id));
    } catch (error) {
      // A student enrolled meanwhile: the session can only be cancelled now.
      if (isApiError(error) && error.status === 409) setBlocked(true);
      else message.error(COURSE_MESSAGES.sessionDeleteFailed);
    }
  };

  return (
    <Modal
      open
      title="Cancel course"
      okText="Delete"
      okButtonProps={{ danger: true, disabled: blocked }}
      confirmLoading={deletion.isPending}
      onOk={() => void remove()}
      onCancel={onClose}
      destroyOnHidden
    >
      {blocked ? (
        <Alert type="warning" showIcon title={SCHEDULING_MESSAGES.deleteBlocked} />
      ) : (
        <Typography.Paragraph>
          Delete this session of {event.Activity?.name ?? event.name}? This cannot be undone.
        </Typography.Paragraph>
      )}
    </Modal>
  );
}

function CancelSessionDialog({
  event,
  onClose,
  onCancelled,
}: {
  event: EventDetail;
  onClose: () => void;
  onCancelled: () => void;
}) {
  const { message } = App.useApp();
  const cancel = useCancelEvent(event.event_id);
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm<SessionCancelFormInput>({
    resolver: zodResolver(sessionCancelFormSchema),
    defaultValues: { refund: undefined, reason: '' },
  });
  const students = event.enrolled_count;
  const refund = useWatch({ control, name: 'refund' });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await cancel.mutateAsync({
        refund: values.refund,
        reason: values.reason,
        // Issue 24: a full refund may go to each student's store credit (no card needed).
        ...(values.refund === 'full' && values.refund_to === 'store_credit'
          ? { refund_to: 'store_credit' as const }
          : {}),
      });
      message.success(SESSION_CANCEL_MESSAGES.cancelled);
      onCancelled();
    } catch (error) {
      if (setServerFieldErrors(error, setError, ['refund', 'reason', 'refund_to'])) return;
      message.error(SESSION_CANCEL_MESSAGES.cancelFailed);
      setFailure(serverMessage(error, SESSION_CANCEL_MESSAGES.cancelFailed));
    }
  });

  return (
    <Modal
      open
      title="Cancel course"
      okText="Cancel session"
      cancelText="Keep session"
      okButtonProps={{ danger: true }}
      confirmLoading={formState.isSubmitting}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical" component={false}>
        <Typography.Paragraph>
          {students > 0
            ? `Cancel this session of ${event.Activity?.name ?? event.name}? Its ${students} ${students === 1 ? 'student is' : 'students are'} removed and mailed the reason.`
            : `Cancel this session of ${event.Activity?.name ?? event.name}? Its unpaid payment links are cancelled.`}
        </Typography.Paragraph>
        {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 12 }} /> : null}
        <FormField control={control} name="refund" label="Refund" required>
          {(field) => (
            <Radio.Group
              aria-label="Refund"
              value={field.value}
              onChange={(e) => field.onChange(e.target.value)}
              options={SESSION_CANCEL_REFUNDS.map((value) => ({
                value,
                label: SESSION_CANCEL_REFUND_LABELS[value],
              }))}
            />
          )}
        </FormField>
        {refund === 'full' ? (
          <FormField control={control} name="refund_to" label="Refund to">
            {(field) => (
              <Radio.Group
                aria-label="Refund to"
                name="refund_to"
                value={field.value ?? 'card'}
                onChange={(e) => field.onChange(e.target.value)}
                options={REFUND_DESTINATIONS.map((value) => ({
                  value,
                  label: REFUND_DESTINATION_LABELS[value],
                }))}
              />
            )}
          </FormField>
        ) : null}
        <FormField control={control} name="reason" label="Reason" required extra="Sent to every student.">
          {(field, state) => (
            <Input.TextArea
              id="reason"
              aria-label="Reason"
              rows={3}
              maxLength={SESSION_CANCEL_REASON_MAX}
              showCount
              status={state.error ? 'error' : undefined}
              value={(field.value as string) ?? ''}
              onChange={field.onChange}
            />
          )}
        </FormField>
      </Form>
    </Modal>
  );
}
