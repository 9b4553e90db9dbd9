import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  APPOINTMENT_UI_MESSAGES,
  appointmentMoveFormSchema,
  formatInZone,
  type AppointmentMoveFormInput,
  type AppointmentMoveFormOutput,
} from '@studio/contracts';
import {
  Alert,
  App,
  Form,
  FormField,
  LabeledSwitch,
  Modal,
  QueryGuard,
  Skeleton,
  Typography,
  courseQueries,
  isApiError,
  useDateFormat,
  useQuery,
  useQueryClient,
  zodResolver,
  type DrawerProps,
} from '@studio/ui';
import { refreshAppointments, useMoveAppointment } from './appointment.api';
import { SlotPicker } from './slot-picker';

/** The appointment to move, as the Booking card and the calendar know it. */
export interface MovedAppointment {
  id: string;
  activity_id: string;
  starts_at: string;
  /** The location's IANA zone. */
  time_zone: string;
  student_name: string;
}

export interface MoveAppointmentData {
  appointment: MovedAppointment;
  /** Runs after the move (the caller reloads what it shows). */
  onDone?: () => void;
}

/**
 * Move an appointment (issue 22): another free time of the same course (the slots call, in the
 * location's zone), the student mailed the new time unless the switch is turned off. A time taken
 * meanwhile is refused with the API's message and the list of times reloads.
 */
export function MoveAppointmentDialog({ data, close }: DrawerProps<MoveAppointmentData>) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const dates = useDateFormat();
  const { appointment } = data;
  const course = useQuery(courseQueries.detail(appointment.activity_id));
  const move = useMoveAppointment(appointment.id);
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setValue } = useForm<
    AppointmentMoveFormInput,
    unknown,
    AppointmentMoveFormOutput
  >({
    resolver: zodResolver(appointmentMoveFormSchema),
    defaultValues: { starts_at: '', notify: true },
  });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await move.mutateAsync(values);
      message.success(APPOINTMENT_UI_MESSAGES.moved);
      data.onDone?.();
      close();
    } catch (error) {
      message.error(APPOINTMENT_UI_MESSAGES.moveFailed);
      setFailure(
        isApiError(error) && error.body?.message ? error.body.message : APPOINTMENT_UI_MESSAGES.moveFailed,
      );
      if (isApiError(error) && error.status === 409) {
        setValue('starts_at', '');
        void refreshAppointments(queryClient);
      }
    }
  });

  return (
    <Modal
      open
      title="Move appointment"
      okText="Move"
      confirmLoading={move.isPending}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Typography.Paragraph>
        {appointment.student_name}, now {dates.dateTime(appointment.starts_at, appointment.time_zone)}. Pick
        another free time of this course.
      </Typography.Paragraph>
      {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 12 }} /> : null}
      <QueryGuard
        query={course}
        title="Could not load the course"
        loading={<Skeleton active title={false} paragraph={{ rows: 2 }} />}
      >
        {(loaded) => (
          <Form layout="vertical" component={false}>
            <FormField control={control} name="starts_at" label="New day and time" required>
              {(field, state) => (
                <SlotPicker
                  id="starts_at"
                  activityId={appointment.activity_id}
                  zone={appointment.time_zone}
                  windowDays={loaded.booking_window_days}
                  value={field.value}
                  onChange={field.onChange}
                  exclude={appointment.starts_at}
                  initialDay={formatInZone(appointment.starts_at, 'yyyy-MM-dd', appointment.time_zone)}
                  status={state.error ? 'error' : undefined}
                />
              )}
            </FormField>
            <FormField control={control} name="notify">
              {(field) => (
                <LabeledSwitch
                  label="Email the student the new time"
                  checked={field.value}
                  onChange={field.onChange}
                />
              )}
            </FormField>
          </Form>
        )}
      </QueryGuard>
    </Modal>
  );
}
