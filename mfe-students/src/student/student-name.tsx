import { useState } from 'react';
import { studentNameSchema } from '@studio/contracts';
import { busy, App, Button, EditOutlined, Flex, Input, Typography } from '@studio/ui';
import { useUpdateStudentName } from '../api/students';
import { STUDENT_MESSAGES } from './student-messages';

interface Props {
  studentId: string;
  firstName: string;
  lastName: string;
}

/** The name in view mode with a pencil, or in edit mode with Save and Cancel. */
export function StudentName({ studentId, firstName, lastName }: Props) {
  const { message } = App.useApp();
  const [editing, setEditing] = useState(false);
  const [first, setFirst] = useState(firstName);
  const [last, setLast] = useState(lastName);
  const update = useUpdateStudentName(studentId);

  if (!editing) {
    return (
      <Flex align="center" gap={8}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {`${firstName} ${lastName}`.trim()}
        </Typography.Title>
        <Button
          type="text"
          aria-label="Edit name"
          icon={<EditOutlined />}
          onClick={() => {
            setFirst(firstName);
            setLast(lastName);
            setEditing(true);
          }}
        />
      </Flex>
    );
  }

  const save = async () => {
    // The API's rule (libs/contracts): a name the server would refuse is not sent. Spec 001 §5 shows
    // no name validation, so it fails as a refused save does, and the reason is logged.
    const parsed = studentNameSchema.safeParse({ first_name: first, last_name: last });
    if (!parsed.success) {
      console.error(STUDENT_MESSAGES.nameFailed, parsed.error.issues[0]?.message);
      message.error(STUDENT_MESSAGES.nameFailed);
      return;
    }
    const { first_name, last_name } = parsed.data;
    try {
      await update.mutateAsync({ first_name, last_name });
      message.success(STUDENT_MESSAGES.nameUpdated);
      setEditing(false);
    } catch (error) {
      console.error(STUDENT_MESSAGES.nameFailed, error);
      message.error(STUDENT_MESSAGES.nameFailed);
    }
  };

  return (
    <Flex gap={8} wrap>
      <Input
        aria-label="First name"
        value={first}
        onChange={(e) => setFirst(e.target.value)}
        style={{ width: 160 }}
      />
      <Input
        aria-label="Last name"
        value={last}
        onChange={(e) => setLast(e.target.value)}
        style={{ width: 160 }}
      />
      <Button type="primary" loading={busy(update.isPending)} onClick={() => void save()}>
        Save
      </Button>
      <Button onClick={() => setEditing(false)}>Cancel</Button>
    </Flex>
  );
}
