import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { attendanceOf } from '@studio/contracts';
import { RequestContext } from '../../common/request-context';
import { StudentDetailParts, StudentSessionRow, StudentSessionsSource } from '../students/student-detail-parts';

/** The newest sessions the student drawer shows. */
const STUDENT_SESSIONS = 50;

/**
 * Gives the student detail the student's sessions with their attendance (issue 23), registered in
 * StudentDetailParts: the students module reads no scheduling table itself.
 */
@Injectable()
export class StudentSessionsQuery implements StudentSessionsSource, OnModuleInit {
  constructor(
    private readonly em: EntityManager,
    private readonly parts: StudentDetailParts,
  ) {}

  onModuleInit(): void {
    this.parts.registerSessions(this);
  }

  async sessions(ctx: RequestContext, studentId: string): Promise<StudentSessionRow[]> {
    const rows = await this.em.getConnection().execute<
      { enrollment_id: string; event_id: string; name: string; starts_at: Date; ends_at: Date; timezone: string; checked_in_at: Date | null }[]
    >(
      `select e.id as enrollment_id, ev.id as event_id, ev.name, ev.starts_at, ev.ends_at, l.timezone, e.checked_in_at
         from enrollment e
         join event ev on ev.id = e.event_id
         join location l on l.id = ev.location_id
        where e.organization_id = ? and e.student_id = ? and e.status = 'active'
        order by ev.starts_at desc, e.id desc
        limit ?`,
      [ctx.organizationId, studentId, STUDENT_SESSIONS],
    );
    const now = new Date();
    return rows.map((r) => ({
      enrollment_id: r.enrollment_id,
      event_id: r.event_id,
      name: r.name,
      starts_at: new Date(r.starts_at).toISOString(),
      ends_at: new Date(r.ends_at).toISOString(),
      timezone: r.timezone,
      checked_in_at: r.checked_in_at ? new Date(r.checked_in_at).toISOString() : null,
      attendance: attendanceOf(r.checked_in_at, r.ends_at, now),
    }));
  }
}
