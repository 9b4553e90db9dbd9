import { Injectable } from '@nestjs/common';
import { DurableEvents } from '../../outbox/durable-events';
import { OutboxService } from '../../outbox/outbox.service';

/**
 * What the scheduling module announces about seats, published by the one writer of enrollments
 * (SeatWriter: createSeat, removeSeat, moveRows) in the transaction that changes the seat (the outbox): no
 * caller announces by hand. The waivers module listens (enrollment.created: a course that requires
 * a waiver gets a signature request; enrollment.removed: a request nobody needs any more is
 * withdrawn), and the mailing-list sync. Delivery is at least once, in order per enrollment:
 * listeners are idempotent.
 */
export type EnrollmentEvent =
  | {
      type: 'enrollment.created';
      organizationId: string;
      enrollmentId: string;
      studentId: string;
      eventId: string;
      /** The course's required waiver template, or null when it requires none. */
      requiredWaiverId: string | null;
    }
  | {
      /** The student was taken off the session (Remove student, with or without a refund, or a sale refunded on another platform). */
      type: 'enrollment.removed';
      organizationId: string;
      enrollmentId: string;
      studentId: string;
      eventId: string;
    }
  | {
      /**
       * The student's seat (with its guests) moved to another session of the same course (issue 23:
       * a reschedule from the manage link or Modify booking, or the studio's Move students). The
       * reminders and the waitlist listen: the seats of `fromEventId` are free again.
       */
      type: 'enrollment.moved';
      organizationId: string;
      enrollmentId: string;
      studentId: string;
      fromEventId: string;
      toEventId: string;
    };

/** What the scheduling module announces about enrollments (see DurableEvents); ordered per enrollment. */
@Injectable()
export class EnrollmentEvents extends DurableEvents<EnrollmentEvent> {
  constructor(outbox: OutboxService) {
    super(outbox, (e) => e.enrollmentId);
  }
}
