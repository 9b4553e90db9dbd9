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
  Avatar,
  Button,
  Flex,
  Form,
  FormField,
  Input,
  uploadImage,
  zodResolver,
  instructorQueries,
  useQuery,
  type InstructorItem,
} from '@studio/ui';
import { InstructorHours } from './instructor-hours';
import { useSaveInstructor } from './reference.api';
import type { InstructorBody } from './reference.api';
import { ReferenceListPage, useReferenceEditor } from './reference-list-page';

const EMPTY: InstructorInput = { first_name: '', last_name: '', photo_url: null };

/**
 * /admin/settings/instructors: instructors with a photo, added and edited here; each one's bookable
 * hours (issue 22) open with Hours, below the table.
 */
export function InstructorsPage() {
  const [uploading, setUploading] = useState(false);
  // The instructor whose bookable hours are open below the table (issue 22).
  const [hoursOf, setHoursOf] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const form = useForm<InstructorInput, unknown, InstructorBody>({
    resolver: zodResolver(instructorSchema),
    defaultValues: EMPTY,
  });
  const { control, setValue } = form;
  const photo = useWatch({ control, name: 'photo_url' });
  const editor = useReferenceEditor({
    form,
    empty: EMPTY,
    idOf: (instructor: InstructorItem) => instructor.instructor_id,
    toInput: (instructor) => ({
      first_name: instructor.first_name,
      last_name: instructor.last_name,
      photo_url: instructor.photo_url,
    }),
    save: useSaveInstructor(),
    saved: REFERENCE_MESSAGES.instructorCreated,
    what: 'the instructor',
  });

  const query = useQuery(instructorQueries.list());
  const hoursInstructor = query.data?.instructors.find((i) => i.instructor_id === hoursOf) ?? null;

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

  return (
    <ReferenceListPage<InstructorItem>
      texts={{
        title: 'Instructors',
        loadFailed: 'Could not load the instructors',
        empty: 'No instructors yet',
        form: 'Instructor',
        addTitle: 'Add an instructor',
        editTitle: 'Edit instructor',
        add: 'Add instructor',
        save: 'Save instructor',
      }}
      query={query}
      rows={query.data?.instructors ?? []}
      rowKey="instructor_id"
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
          key: 'hours',
          title: '',
          width: 90,
          render: (_, i) => (
            <Button size="small" aria-label={`Hours of ${i.first_name}`} onClick={() => setHoursOf(i.instructor_id)}>
              Hours
            </Button>
          ),
        },
      ]}
      below={
        hoursInstructor ? <InstructorHours instructor={hoursInstructor} onClose={() => setHoursOf(null)} /> : null
      }
      editLabel={(i) => `Edit ${i.first_name}`}
      editor={editor}
    >
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
    </ReferenceListPage>
  );
}
