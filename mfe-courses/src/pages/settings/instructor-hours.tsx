import { useForm, type Resolver } from 'react-hook-form';
import { AVAILABILITY_MESSAGES, REFERENCE_MESSAGES, availabilityFormSchema } from '@studio/contracts';
import {
  App,
  Button,
  Card,
  Flex,
  QueryGuard,
  busy,
  isApiError,
  useQuery,
  zodResolver,
  type InstructorItem,
} from '@studio/ui';
import { AvailabilityEditor } from '../../availability/availability-editor';
import {
  toAvailabilityValues,
  type AvailabilityFormValues,
  type AvailabilityValues,
} from '../../availability/availability-values';
import {
  instructorAvailabilityQuery,
  useSaveInstructorAvailability,
  type AvailabilityBody,
} from '../../availability/availability.api';

// The contract's input type leaves days optional; the form always holds all seven.
const resolver = zodResolver(availabilityFormSchema) as unknown as Resolver<
  AvailabilityFormValues,
  unknown,
  { availability: AvailabilityBody }
>;

const fullName = (i: InstructorItem) => [i.first_name, i.last_name].filter(Boolean).join(' ');

/**
 * Settings → Instructors → Hours: one instructor's bookable hours (issue 22), read with GET and
 * saved with PUT …/instructor/{id}/availability. Appointment courses without hours of their own
 * offer these times.
 */
export function InstructorHours({
  instructor,
  onClose,
}: {
  instructor: InstructorItem;
  onClose: () => void;
}) {
  const query = useQuery(instructorAvailabilityQuery(instructor.instructor_id));
  const name = fullName(instructor);
  return (
    <Card
      size="small"
      title={`Hours of ${name}`}
      role="region"
      aria-label={`Hours of ${name}`}
      extra={<Button onClick={onClose}>Close</Button>}
    >
      <QueryGuard query={query} title="Could not load the hours">
        {(hours) => (
          <HoursForm
            key={instructor.instructor_id}
            instructorId={instructor.instructor_id}
            hours={toAvailabilityValues(hours)}
            onClose={onClose}
          />
        )}
      </QueryGuard>
    </Card>
  );
}

function HoursForm({
  instructorId,
  hours,
  onClose,
}: {
  instructorId: string;
  hours: AvailabilityValues;
  onClose: () => void;
}) {
  const { message } = App.useApp();
  const save = useSaveInstructorAvailability(instructorId);
  const form = useForm<AvailabilityFormValues, unknown, { availability: AvailabilityBody }>({
    resolver,
    defaultValues: { availability: hours },
  });
  const { control, setValue, setError, formState } = form;

  const onSubmit = form.handleSubmit(async ({ availability }) => {
    try {
      const saved = await save.mutateAsync(availability);
      message.success(AVAILABILITY_MESSAGES.saved);
      form.reset({ availability: toAvailabilityValues(saved) });
    } catch (error) {
      console.error('Saving the hours failed', error);
      message.error(REFERENCE_MESSAGES.saveFailed);
      // The API names the field by its path in the body ("weekly.mon.0.end"): the same place here.
      const errors = isApiError(error) ? error.body?.errors : undefined;
      for (const [path, text] of Object.entries(errors ?? {})) {
        setError(path === '_' ? 'availability' : (`availability.${path}` as 'availability'), {
          type: 'server',
          message: text,
        });
      }
    }
  });

  return (
    <form onSubmit={onSubmit} aria-label="Hours" noValidate>
      <Flex vertical gap={16}>
        <AvailabilityEditor control={control} setValue={setValue} />
        <Flex gap={8}>
          <Button type="primary" htmlType="submit" loading={busy(formState.isSubmitting)}>
            Save hours
          </Button>
          <Button onClick={onClose}>Cancel</Button>
        </Flex>
      </Flex>
    </form>
  );
}
