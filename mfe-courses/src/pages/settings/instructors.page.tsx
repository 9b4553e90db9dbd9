import { useRef, useState, type ChangeEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  IMAGE_MIME_TYPES,
  MAX_IMAGE_BYTES,
  REFERENCE_MESSAGES,
  instructorSchema,
  type InstructorInput,
} from '@studio/contracts';
import {
  busy,
  App,
  Avatar,
  Button,
  Card,
  Flex,
  Form,
  FormField,
  Input,
  Table,
  uploadImage,
  zodResolver,
  QueryFailure,
  instructorQueries,
  useQuery,
  type InstructorItem,
  PageFrame,
} from '@studio/ui';
import { useSaveInstructor } from './reference.api';
import type { InstructorBody } from './reference.api';

const EMPTY: InstructorInput = { first_name: '', last_name: '', photo_url: null };

/** /admin/settings/instructors: instructors with a photo, added and edited here. */
export function InstructorsPage() {
  const { message } = App.useApp();
  const [editing, setEditing] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const form = useForm<InstructorInput, unknown, InstructorBody>({
    resolver: zodResolver(instructorSchema),
    defaultValues: EMPTY,
  });
  const { control, reset, setValue, formState } = form;
  const photo = useWatch({ control, name: 'photo_url' });

  const save = useSaveInstructor();
  // The page's main data: a failure shows an error with Retry, never "No instructors yet".
  const query = useQuery(instructorQueries.list());
  const instructors = query.data?.instructors ?? [];

  const startEdit = (instructor: InstructorItem | null) => {
    setEditing(instructor?.instructor_id ?? null);
    reset(
      instructor
        ? {
            first_name: instructor.first_name,
            last_name: instructor.last_name,
            photo_url: instructor.photo_url,
          }
        : EMPTY,
    );
  };

  // Like course images, a failed photo upload shows no message and changes nothing (spec 000 §8).
  const pickPhoto = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || !(IMAGE_MIME_TYPES as readonly string[]).includes(file.type) || file.size > MAX_IMAGE_BYTES)
      return;
    setUploading(true);
    try {
      const { url } = await uploadImage(file);
      setValue('photo_url', url);
    } catch (error) {
      console.error('Photo upload failed', error);
    } finally {
      setUploading(false);
    }
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: editing, body: values });
      message.success(REFERENCE_MESSAGES.instructorCreated);
      startEdit(null);
    } catch (error) {
      console.error('Saving the instructor failed', error);
      message.error(REFERENCE_MESSAGES.saveFailed);
    }
  });

  return (
    <PageFrame title="Instructors">
      <Flex vertical gap={16}>
        <QueryFailure query={query} title="Could not load the instructors" />
        <Table<InstructorItem>
          loading={query.isLoading}
          rowKey="instructor_id"
          dataSource={instructors}
          pagination={false}
          locale={{ emptyText: 'No instructors yet' }}
          columns={[
            {
              key: 'photo',
              title: '',
              width: 56,
              render: (_, i) => <Avatar src={i.photo_url ?? undefined}>{i.first_name.charAt(0)}</Avatar>,
            },
            {
              key: 'name',
              title: 'Name',
              render: (_, i) => [i.first_name, i.last_name].filter(Boolean).join(' '),
            },
            {
              key: 'edit',
              title: '',
              render: (_, i) => (
                <Button size="small" aria-label={`Edit ${i.first_name}`} onClick={() => startEdit(i)}>
                  Edit
                </Button>
              ),
            },
          ]}
        />
        <Card size="small" title={editing ? 'Edit instructor' : 'Add an instructor'}>
          <form onSubmit={onSubmit} aria-label="Instructor" noValidate>
            <Form layout="vertical" component={false}>
              <FormField control={control} name="first_name" label="First name" required>
                {(field) => <Input {...field} id="first_name" />}
              </FormField>
              <FormField control={control} name="last_name" label="Last name">
                {(field) => <Input {...field} id="last_name" />}
              </FormField>
              <Form.Item label="Photo">
                <Flex gap={8} align="center">
                  {photo ? <Avatar size={48} src={photo} alt="Instructor photo" /> : null}
                  <input
                    ref={fileInput}
                    type="file"
                    hidden
                    accept={IMAGE_MIME_TYPES.join(',')}
                    aria-label="Upload photo"
                    onChange={(e) => void pickPhoto(e)}
                  />
                  <Button loading={uploading} onClick={() => fileInput.current?.click()}>
                    Upload photo
                  </Button>
                  {photo ? <Button onClick={() => setValue('photo_url', null)}>Remove photo</Button> : null}
                </Flex>
              </Form.Item>
              <Flex gap={8}>
                <Button type="primary" htmlType="submit" loading={busy(formState.isSubmitting)}>
                  {editing ? 'Save instructor' : 'Add instructor'}
                </Button>
                {editing ? <Button onClick={() => startEdit(null)}>Cancel</Button> : null}
              </Flex>
            </Form>
          </form>
        </Card>
      </Flex>
    </PageFrame>
  );
}
