import { INestApplicationContext, Logger } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { RequestContext } from '../common/request-context';
import { EsignPort } from '../modules/waivers/esign.port';
import { WaiversService } from '../modules/waivers/waivers.service';

/**
 * The demo studio's waivers: every seat in a course that requires a waiver gets its submission,
 * signed (on the demo signing page, a day after enrolling) or still pending, as the seeded
 * enrollments say. Only with the built-in signing page: demo students are not sent to DocuSeal.
 */
export async function seedDemoWaivers(app: INestApplicationContext, ctx: RequestContext): Promise<void> {
  if (app.get(EsignPort).provider !== 'demo') {
    new Logger('Seed').log('DocuSeal is configured: the demo waivers are not seeded');
    return;
  }
  const waivers = app.get(WaiversService);
  const rows = await app.get(EntityManager).execute<
    { enrollment_id: string; student_id: string; template_id: string; created_at: Date; waiver_status: string; first_name: string; last_name: string }[]
  >(
    `select e.id as enrollment_id, e.student_id, a.required_waiver_id as template_id, e.created_at, e.waiver_status, s.first_name, s.last_name
       from enrollment e
       join event ev on ev.id = e.event_id
       join activity a on a.id = ev.activity_id
       join student s on s.id = e.student_id
      where e.organization_id = ? and e.status = 'active' and a.required_waiver_id is not null and e.waiver_status in ('signed', 'pending')
      order by e.created_at`,
    [ctx.organizationId],
  );
  for (const row of rows) {
    const createdAt = new Date(row.created_at);
    const signedAt = new Date(Math.min(createdAt.getTime() + 86400000, Date.now() - 3600000));
    await waivers.recordDemo({
      organizationId: ctx.organizationId,
      studentId: row.student_id,
      enrollmentId: row.enrollment_id,
      templateId: row.template_id,
      createdAt,
      signed: row.waiver_status === 'signed' ? { at: signedAt, name: `${row.first_name} ${row.last_name}` } : null,
    });
  }
}
