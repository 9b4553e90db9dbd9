import { Flex, Select, Switch, useList } from '@studio/ui';
import { EVENTBRITE_EVENTS_PATH, pickTicketingEvents } from '../course/course.api';

interface SyncSettingsProps {
  sync: boolean;
  onSyncChange: (on: boolean) => void;
  eventId: string | null;
  onEventChange: (id: string | null) => void;
  eventError?: string;
}

/**
 * Sync with the event-ticketing service (spec 001 §2, §5). The events endpoint is not on the
 * server yet; like every list, a failed load is an empty picker (spec 001 §8).
 */
export function SyncSettings({ sync, onSyncChange, eventId, onEventChange, eventError }: SyncSettingsProps) {
  const { items, loading } = useList(sync ? EVENTBRITE_EVENTS_PATH : null, pickTicketingEvents);
  return (
    <Flex vertical gap={8}>
      <Flex gap={8} align="center">
        <Switch checked={sync} onChange={onSyncChange} aria-label="Sync with Eventbrite" />
        <span>Sync with Eventbrite</span>
      </Flex>
      {sync ? (
        <Flex vertical gap={4}>
          <Select<string>
            id="eventbrite_event_id"
            aria-label="Eventbrite event"
            status={eventError ? 'error' : undefined}
            loading={loading}
            value={eventId ?? undefined}
            onChange={(id) => onEventChange(id ?? null)}
            placeholder="Select an event"
            notFoundContent="No events found"
            options={items.map((e) => ({ value: e.id, label: e.name }))}
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
