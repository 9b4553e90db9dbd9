import { Injectable } from '@nestjs/common';
import { DurableEvents } from '../../outbox/durable-events';
import { OutboxService } from '../../outbox/outbox.service';

/**
 * What the students module announces about a student, published in the transaction that wrote it
 * (the outbox; the sync module listens: mailing lists get the new customer). At least once:
 * listeners are idempotent.
 */
export type StudentEvent = {
  type: 'student.created';
  organizationId: string;
  studentId: string;
};

/** What the students module announces about students (see DurableEvents); ordered per student. */
@Injectable()
export class StudentEvents extends DurableEvents<StudentEvent> {
  constructor(outbox: OutboxService) {
    super(outbox, (e) => e.studentId);
  }
}
