import { Injectable } from '@nestjs/common';
import type { SessionCancelRefund } from '@studio/contracts';
import { DurableEvents } from '../../outbox/durable-events';
import { OutboxService } from '../../outbox/outbox.service';

/**
 * What the scheduling module announces about a session (event), published in the transaction of
 * the change (the outbox). The waitlist listens (seats released, a capacity raised). The sync module listens (the session becomes or updates an Eventbrite
 * event and a Zoom meeting; a removed session cancels them). Ids only: a listener reads the session
 * fresh through EventsService.syncView. At least once, in order per session: listeners are idempotent.
 * session.cancelled carries the studio's refund choice and reason as well.
 */
export type SessionEvent =
  | { type: 'session.saved'; organizationId: string; eventId: string; activityId: string; created: boolean }
  | { type: 'session.removed'; organizationId: string; eventId: string; activityId: string }
  | {
      /**
       * The studio cancelled the session (issue 23): it stays, with status cancelled. The sync module
       * cancels its Eventbrite event and Zoom meeting as for a removed one; the orders module cancels
       * its unpaid payment links. Each student's seat is its own SessionCancelEvents row.
       */
      type: 'session.cancelled';
      organizationId: string;
      eventId: string;
      activityId: string;
      refund: SessionCancelRefund;
      reason: string;
    }
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

/**
 * One student's seat in a session the studio cancelled (issue 23): one row per seat, published with
 * session.cancelled in the cancel's transaction, ordered per enrollment (not per session, so one
 * student's slow refund never holds up the others). The orders module's handler removes the seat,
 * refunds it in full or not at all (as the cancellation says), mails the student and records the
 * outcome on the seat's session_cancellation_seat row, once however often it is delivered.
 */
export type SessionCancelEvent = {
  type: 'session.seat_cancelled';
  organizationId: string;
  eventId: string;
  enrollmentId: string;
};

/** The seats of cancelled sessions (see DurableEvents); ordered per enrollment. */
@Injectable()
export class SessionCancelEvents extends DurableEvents<SessionCancelEvent> {
  constructor(outbox: OutboxService) {
    super(outbox, (e) => e.enrollmentId);
  }
}
