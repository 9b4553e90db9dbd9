import { useState } from 'react';
import { COURSE_MESSAGES, SCHEDULING_MESSAGES, courseDetailPath } from '@studio/contracts';
import { Alert, App, Modal, Typography, isApiError } from '@studio/ui';
import { useDeleteEvent, type EventDetail } from '../api/events';
import { navigateTo } from './navigate';

interface DeleteEventDialogProps {
  event: EventDetail;
  onClose: () => void;
  /** Closes the drawer: navigating to the page already shown is no route change, so it would stay. */
  onDeleted: () => void;
}

/**
 * Delete event dialog: refused while students are enrolled (spec 001 §4, §8); after a delete the
 * admin lands on the course's page.
 */
export function DeleteEventDialog({ event, onClose, onDeleted }: DeleteEventDialogProps) {
  const { message } = App.useApp();
  const deletion = useDeleteEvent(event.event_id);
  const [blocked, setBlocked] = useState(event.enrolled_count > 0);

  const remove = async () => {
    try {
      const answer = await deletion.mutateAsync();
      message.success(COURSE_MESSAGES.deleted);
      onClose();
      onDeleted();
      navigateTo(answer.redirect_to || courseDetailPath(answer.activity_id ?? event.activity_id));
    } catch (error) {
      if (isApiError(error) && error.status === 409) setBlocked(true);
      else message.error(COURSE_MESSAGES.deleteFailed);
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
