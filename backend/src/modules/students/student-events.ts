import { Injectable } from '@nestjs/common';
import { InProcessEvents } from '../../common/in-process-events';

/**
 * What the students module announces once a student is committed (the sync module listens:
 * mailing lists get the new customer). Listeners must be idempotent: an announcement may repeat.
 */
export type StudentEvent = {
  type: 'student.created';
  organizationId: string;
  studentId: string;
};

/** What the students module announces about students (see InProcessEvents). */
@Injectable()
export class StudentEvents extends InProcessEvents<StudentEvent> {}
