import { Alert, FEATURE_NOT_AVAILABLE, Flex, Switch } from '@studio/ui';

interface SyncSettingsProps {
  sync: boolean;
  onSyncChange: (on: boolean) => void;
  eventId: string | null;
  onEventChange: (id: string | null) => void;
  eventError?: string;
}

/**
 * Sync with the event-ticketing service (spec 001 §2, §5). Its events list
 * (GET /api/admin/partners/eventbrite/events) is on the known-missing list (sync issue 11): no
 * request is made, and the panel says the events are not available yet.
 */
export function SyncSettings({ sync, onSyncChange, eventId, eventError }: SyncSettingsProps) {
  return (
    <Flex vertical gap={8}>
      <Flex gap={8} align="center">
        <Switch checked={sync} onChange={onSyncChange} aria-label="Sync with Eventbrite" />
        <span>Sync with Eventbrite</span>
      </Flex>
      {sync ? (
        <Flex vertical gap={4}>
          <Alert
            type="info"
            showIcon
            title={FEATURE_NOT_AVAILABLE.ticketingEvents}
            description={eventId ? `Linked event: ${eventId}` : undefined}
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
