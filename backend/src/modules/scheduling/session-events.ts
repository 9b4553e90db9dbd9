import { Injectable } from '@nestjs/common';
import { DurableEvents } from '../../outbox/durable-events';
import { OutboxService } from '../../outbox/outbox.service';

/**
 * What the scheduling module announces about a session (event), published in the transaction of
 * the change (the outbox). The waitlist listens (seats released, a capacity raised). The sync module listens (the session becomes or updates an Eventbrite
 * event and a Zoom meeting; a removed session cancels them). Ids only: a listener reads the session
 * fresh through EventsService.syncView. At least once, in order per session: listeners are idempotent.
 */
export type SessionEvent =
  | { type: 'session.saved'; organizationId: string; eventId: string; activityId: string; created: boolean }
  | { type: 'session.removed'; organizationId: string; eventId: string; activityId: string }
  | {
      /**
       * Seats a hold kept came back without becoming a booking (issue 23): a payment link or a store
       * checkout cancelled or expired, or a waitlist claim whose payment did not complete. The
       * waitlist listens and offers them. `waitlistEntryId` names the offer the hold came from, if any.
       */
      type: 'session.seats_released';
      organizationId: string;
      eventId: string;
      waitlistEntryId: string | null;
    };

/** What the scheduling module announces about sessions (see DurableEvents); ordered per session. */
@Injectable()
export class SessionEvents extends DurableEvents<SessionEvent> {
  constructor(outbox: OutboxService) {
    super(outbox, (e) => e.eventId);
  }
}
