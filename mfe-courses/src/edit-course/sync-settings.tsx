import { SYNC_MESSAGES } from '@studio/contracts';
import { Alert, Flex, Select, serverMessage, syncQueries, useDateFormat, useQuery, LabeledSwitch } from '@studio/ui';

/**
 * Said under a sync switched on while Eventbrite is not connected (issue 25: it could be switched on
 * with no word, and nothing would sync).
 */
export function EventbriteConnectionWarning({ on }: { on: boolean }) {
  const provider = useQuery({ ...syncQueries.provider('eventbrite'), enabled: on });
  if (!on || !provider.data || provider.data.provider.connected) return null;
  return <Alert type="warning" showIcon title={SYNC_MESSAGES.syncNeedsConnection} />;
}

interface SyncSettingsProps {
  sync: boolean;
  onSyncChange: (on: boolean) => void;
  eventId: string | null;
  onEventChange: (id: string | null) => void;
  eventError?: string;
}

/**
 * Sync with the event-ticketing service (spec 001 §2, §5): the switch, and once on, the events of
 * the connected Eventbrite organization to link the course to (GET /api/admin/partners/eventbrite/events).
 * When Eventbrite is not connected or no organization is chosen, the API's message says what to do.
 */
export function SyncSettings({ sync, onSyncChange, eventId, onEventChange, eventError }: SyncSettingsProps) {
  const events = useQuery({ ...syncQueries.ticketingEvents(), enabled: sync, retry: false });
  // The product's one date format, in the organization's zone.
  const dates = useDateFormat();
  const options = (events.data?.events ?? []).map((e) => ({
    value: e.id,
    label: `${e.name}${e.start ? ` · ${dates.dateTime(e.start)}` : ''}${e.status === 'canceled' ? ' (canceled)' : ''}`,
  }));
  // A linked event that is not on the first page stays selectable by its id.
  if (eventId && !options.some((o) => o.value === eventId))
    options.unshift({ value: eventId, label: `Event ${eventId}` });
  const failure = events.error ? serverMessage(events.error, 'Eventbrite events could not be loaded.') : null;
  return (
    <Flex vertical gap={8}>
      <LabeledSwitch label="Sync with Eventbrite" checked={sync} onChange={onSyncChange} />
      <EventbriteConnectionWarning on={sync} />
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
