import { useState } from 'react';
import { SCHEDULING_MESSAGES } from '@studio/contracts';
import { App, Modal, Typography, type DrawerProps } from '@studio/ui';
import { removeEnrollment } from './add-student.api';

export interface RemoveStudentData {
  enrollment_id: string;
  student_name?: string;
  onDone?: () => void;
}

/** Remove student: frees the seat, keeps the order. The refund part comes with the orders issue. */
export function RemoveStudentDialog({ data, close }: DrawerProps<RemoveStudentData>) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    try {
      await removeEnrollment(data.enrollment_id);
      message.success(SCHEDULING_MESSAGES.studentRemoved);
      data.onDone?.();
      close();
    } catch (error) {
      console.error('Could not remove the student', error);
      message.error(SCHEDULING_MESSAGES.removeFailed);
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title="Remove student"
      okText="Remove"
      okButtonProps={{ danger: true }}
      confirmLoading={busy}
      onOk={() => void remove()}
      onCancel={close}
      destroyOnHidden
    >
      <Typography.Paragraph>
        Remove {data.student_name || 'this student'} from this session? The seat is freed; the order stays in
        the history.
      </Typography.Paragraph>
    </Modal>
  );
}
