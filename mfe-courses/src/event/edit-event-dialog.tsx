import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  COURSE_MESSAGES,
  centsToAmountText,
  eventUpdateFormSchemaFor,
  type EventUpdateFormInput,
  type EventUpdateFormOutput,
} from '@studio/contracts';
import { Alert, App, Form, FormField, Input, Modal, serverMessage, zodResolver } from '@studio/ui';
import { useUpdateEvent, type EventDetail } from '../api/events';

interface EditEventDialogProps {
  event: EventDetail;
  onClose: () => void;
  onSaved: () => void;
}

/** Edit event dialog (spec 001 §5): capacity, price and the internal description; price to cents. */
export function EditEventDialog({ event, onClose, onSaved }: EditEventDialogProps) {
  const { message } = App.useApp();
  const [failure, setFailure] = useState<string | null>(null);
  const update = useUpdateEvent(event.event_id);
  // A free session (price 0, a free course's session) may keep no price (spec 001 §5 holds for paid ones).
  const free = event.price === 0;
  const { control, handleSubmit, formState } = useForm<EventUpdateFormInput, unknown, EventUpdateFormOutput>({
    resolver: zodResolver(eventUpdateFormSchemaFor(free)),
    defaultValues: {
      capacity: String(event.capacity),
      price: free ? '' : centsToAmountText(event.price),
      internal_short_description: event.internal_short_description ?? '',
    },
  });

  const save = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await update.mutateAsync({
        capacity: values.capacity,
        // Left out of the JSON when a free session keeps no price.
        price: values.price,
        internal_short_description: values.internal_short_description || null,
      });
      message.success(COURSE_MESSAGES.updatedSuccessfully);
      onSaved();
    } catch (error) {
      // A 409 says why (capacity below the seats taken): show the server's words.
      message.error(COURSE_MESSAGES.updateFailedShort);
      setFailure(serverMessage(error, COURSE_MESSAGES.updateFailedShort));
    }
  });

  return (
    <Modal
      open
      title="Edit event"
      okText="Save"
      onOk={() => void save()}
      confirmLoading={formState.isSubmitting}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical" component={false}>
        {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 12 }} /> : null}
        <FormField control={control} name="capacity" label="Capacity" required>
          {(field, state) => (
            <Input
              id="capacity"
              inputMode="numeric"
              status={state.error ? 'error' : undefined}
              value={(field.value as string) ?? ''}
              onChange={field.onChange}
            />
          )}
        </FormField>
        <FormField
          control={control}
          name="price"
          label="Price"
          required={!free}
          extra={
            free
              ? 'Free session: leave the price empty to keep it free. Applies to future orders only.'
              : 'Applies to future orders only.'
          }
        >
          {(field, state) => (
            <Input
              id="price"
              prefix="$"
              inputMode="decimal"
              placeholder={free ? 'Free' : undefined}
              status={state.error ? 'error' : undefined}
              value={(field.value as string) ?? ''}
              onChange={field.onChange}
            />
          )}
        </FormField>
        <FormField control={control} name="internal_short_description" label="Internal short description">
          {(field) => (
            <Input
              id="internal_short_description"
              maxLength={120}
              value={(field.value as string) ?? ''}
              onChange={field.onChange}
            />
          )}
        </FormField>
      </Form>
    </Modal>
  );
}
