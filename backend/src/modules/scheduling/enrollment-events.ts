import { Injectable } from '@nestjs/common';
import { InProcessEvents } from '../../common/in-process-events';

/**
 * What the scheduling module announces once an enrollment change is committed. The waivers module
 * listens (enrollment.created: a course that requires a waiver gets a signature request;
 * enrollment.removed: a request nobody needs any more is withdrawn). The caller that owns the
 * transaction announces after commit (OrdersService.enrollDirectly, EnrollmentsService.remove,
 * OrdersService.releaseExternalSale). Listeners must be idempotent: an announcement may repeat.
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
    };

/** What the scheduling module announces about enrollments (see InProcessEvents). */
@Injectable()
export class EnrollmentEvents extends InProcessEvents<EnrollmentEvent> {}
