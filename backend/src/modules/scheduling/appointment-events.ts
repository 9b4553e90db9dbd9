import { Injectable } from '@nestjs/common';
import { DurableEvents } from '../../outbox/durable-events';
import { OutboxService } from '../../outbox/outbox.service';

/**
 * What the scheduling module announces about appointments (issue 22), published by AppointmentsService
 * (the one writer of the appointment table) in the transaction of the change (the outbox). The
 * appointment mails listen (AppointmentMailer: a confirmation with a calendar file, the new time, the
 * cancellation) and the sync (an online appointment's Zoom meeting). Ids only: a listener reads the
 * appointment fresh. At least once, in order per appointment: listeners are idempotent by key.
 */
export type AppointmentEvent =
  | {
      /** Held → booked: enrolled directly, or its order paid. */
      type: 'appointment.booked';
      organizationId: string;
      appointmentId: string;
      /**
       * Whether the student gets the appointment's own confirmation. False for a store order: the
       * store's confirmation (store_order.paid) is the student's mail for it.
       */
      confirm: boolean;
    }
  | {
      /** Moved to another start (same course and duration); `sequence` is the calendar file's new SEQUENCE. */
      type: 'appointment.moved';
      organizationId: string;
      appointmentId: string;
      sequence: number;
      notify: boolean;
    }
  | {
      /** A booked appointment (or one a payment link waits for) was cancelled: its time is free. */
      type: 'appointment.cancelled';
      organizationId: string;
      appointmentId: string;
      notify: boolean;
    }
  | {
      /** The appointment's meeting link was set for the first time (its confirmation may have waited for it). */
      type: 'appointment.meeting_ready';
      organizationId: string;
      appointmentId: string;
    };

/** What the scheduling module announces about appointments (see DurableEvents); ordered per appointment. */
@Injectable()
export class AppointmentEvents extends DurableEvents<AppointmentEvent> {
  constructor(outbox: OutboxService) {
    super(outbox, (e) => e.appointmentId);
  }
}

/**
 * Whether an appointment will get a meeting link (the sync module registers the answer: Zoom
 * connected and the location online). The confirmation of such an appointment waits for the link
 * (appointment.meeting_ready) so the student's one mail has it. The inversion keeps scheduling from
 * importing sync (sync imports scheduling).
 */
@Injectable()
export class AppointmentMeetings {
  private expects: ((organizationId: string) => Promise<boolean>) | null = null;

  register(expects: (organizationId: string) => Promise<boolean>): void {
    this.expects = expects;
  }

  /** True when a meeting is expected for an appointment at an online location of the organization. */
  async expected(organizationId: string, online: boolean): Promise<boolean> {
    if (!online || !this.expects) return false;
    return this.expects(organizationId);
  }
}
