import { useForm } from 'react-hook-form';
import { STUDENT_MESSAGES, studentCreateSchema, type StudentCreateInput } from '@studio/contracts';
import {
  busy,
  App,
  Button,
  Form,
  FormField,
  Input,
  Modal,
  setServerFieldErrors,
  zodResolver,
} from '@studio/ui';
import { useCreateStudent, type CreatedStudent } from './students.api';

const EMPTY: StudentCreateInput = { first_name: '', last_name: '', email: '' };
const STUDENT_FIELDS = Object.keys(EMPTY);

/** New student: first and last name and a unique email, with the same rules and messages as the API. */
export function NewStudentDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (student: CreatedStudent) => void;
}) {
  const { message } = App.useApp();
  const form = useForm<StudentCreateInput>({
    resolver: zodResolver(studentCreateSchema),
    defaultValues: EMPTY,
  });
  const { control, formState, setError, reset } = form;
  const create = useCreateStudent();

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const student = await create.mutateAsync({ body: values });
      message.success(STUDENT_MESSAGES.created);
      reset(EMPTY);
      onCreated(student);
    } catch (error) {
      // 409: the email is taken; 400: a field the server refused. Both say which field.
      if (setServerFieldErrors(error, setError, STUDENT_FIELDS)) return;
      console.error('Adding the student failed', error);
      message.error(STUDENT_MESSAGES.createFailed);
    }
  });

  return (
    <Modal
      open={open}
      title="New student"
      onCancel={() => {
        reset(EMPTY);
        onClose();
      }}
      destroyOnHidden
      footer={null}
    >
      <form onSubmit={onSubmit} aria-label="New student" noValidate>
        <Form layout="vertical" component={false}>
          <FormField control={control} name="first_name" label="First name" required>
            {(field) => <Input {...field} id="first_name" autoComplete="off" />}
          </FormField>
          <FormField control={control} name="last_name" label="Last name" required>
            {(field) => <Input {...field} id="last_name" autoComplete="off" />}
          </FormField>
          <FormField control={control} name="email" label="Email" required>
            {(field) => <Input {...field} id="email" type="email" autoComplete="off" />}
          </FormField>
          <Button type="primary" htmlType="submit" loading={busy(formState.isSubmitting)} block>
            Add student
          </Button>
        </Form>
      </form>
    </Modal>
  );
}
