import { useState } from 'react';
import { MANAGE_MESSAGES } from '@studio/contracts';
import { Alert, App, Form, Modal, Select, Typography, courseQueries, serverMessage, useDateFormat, useQuery } from '@studio/ui';
import { useMoveStudents } from '../api/bookings';

interface MoveStudentsDialogProps {
  eventId: string;
  activityId: string;
  timezone: string;
  /** The enrollments to move (one row's), or null for every student of the session. */
  enrollmentIds: string[] | null;
  /** "Ana Diaz", or "all 12 students". */
  who: string;
  onClose: () => void;
  onDone: () => void;
}

/**
 * Move students (issue 23): one student, or all of the session's, to another upcoming session of the
 * same course with room. All or nothing: when the chosen session has not room for everyone, nobody
 * moves and the server says how many seats are missing.
 */
export function MoveStudentsDialog({ eventId, activityId, timezone, enrollmentIds, who, onClose, onDone }: MoveStudentsDialogProps) {
  const { message } = App.useApp();
  const format = useDateFormat();
  const sessions = useQuery(courseQueries.sessions(activityId, false));
  const move = useMoveStudents(eventId);
  const [target, setTarget] = useState<string | undefined>();
  const [serverError, setServerError] = useState<string | null>(null);
  const options = (sessions.data?.sessions ?? [])
    .filter((s) => s.event_id !== eventId && new Date(s.start).getTime() > Date.now())
    .map((s) => ({
      value: s.event_id,
      label: `${format.dateTime(s.start, timezone)} (${Math.max(0, s.capacity - s.enrolled)} of ${s.capacity} free)`,
    }));

  const submit = async () => {
    if (!target) return;
    setServerError(null);
    try {
      const answer = await move.mutateAsync({ to_event_id: target, ...(enrollmentIds ? { enrollment_ids: enrollmentIds } : {}) });
      message.success(answer.message);
      onDone();
    } catch (failure) {
      setServerError(serverMessage(failure, MANAGE_MESSAGES.moveNobody));
    }
  };

  return (
    <Modal
      open
      title={enrollmentIds ? 'Move student' : 'Move all students'}
      okText="Move"
      okButtonProps={{ disabled: !target }}
      confirmLoading={move.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical" component={false}>
        <Typography.Paragraph>Move {who} to another session of this course. They are mailed the new time.</Typography.Paragraph>
        <Form.Item label="Session" htmlFor="move-students-target">
          <Select
            id="move-students-target"
            loading={sessions.isLoading}
            value={target}
            onChange={setTarget}
            placeholder="Choose a session"
            options={options}
            notFoundContent="No other upcoming session"
          />
        </Form.Item>
        {serverError ? <Alert type="error" showIcon message={serverError} /> : null}
      </Form>
    </Modal>
  );
}
