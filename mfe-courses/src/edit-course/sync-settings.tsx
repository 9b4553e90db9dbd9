import { Alert, Flex, Select, serverMessage, syncQueries, useQuery, LabeledSwitch } from '@studio/ui';

interface SyncSettingsProps {
  sync: boolean;
  onSyncChange: (on: boolean) => void;
  eventId: string | null;
  onEventChange: (id: string | null) => void;
  eventError?: string;
}

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '';

/**
 * Sync with the event-ticketing service (spec 001 §2, §5): the switch, and once on, the events of
 * the connected Eventbrite organization to link the course to (GET /api/admin/partners/eventbrite/events).
 * When Eventbrite is not connected or no organization is chosen, the API's message says what to do.
 */
export function SyncSettings({ sync, onSyncChange, eventId, onEventChange, eventError }: SyncSettingsProps) {
  const events = useQuery({ ...syncQueries.ticketingEvents(), enabled: sync, retry: false });
  const options = (events.data?.events ?? []).map((e) => ({
    value: e.id,
    label: `${e.name}${e.start ? ` · ${when(e.start)}` : ''}${e.status === 'canceled' ? ' (canceled)' : ''}`,
  }));
  // A linked event that is not on the first page stays selectable by its id.
  if (eventId && !options.some((o) => o.value === eventId))
    options.unshift({ value: eventId, label: `Event ${eventId}` });
  const failure = events.error ? serverMessage(events.error, 'Eventbrite events could not be loaded.') : null;
  return (
    <Flex vertical gap={8}>
      <LabeledSwitch label="Sync with Eventbrite" checked={sync} onChange={onSyncChange} />
      {sync ? (
        <Flex vertical gap={4}>
          {failure ? <Alert type="warning" showIcon title={failure} /> : null}
          <Select
            aria-label="Eventbrite event"
            placeholder="Choose an Eventbrite event"
            loading={events.isLoading}
            value={eventId ?? undefined}
            options={options}
            onChange={(value: string) => onEventChange(value ?? null)}
            allowClear
            onClear={() => onEventChange(null)}
            showSearch
            optionFilterProp="label"
          />
          {eventError ? (
            <span role="alert" style={{ color: '#ff4d4f' }}>
              {eventError}
            </span>
          ) : null}
        </Flex>
      ) : null}
    </Flex>
  );
}
