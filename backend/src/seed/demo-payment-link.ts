import { EntityManager } from '@mikro-orm/postgresql';
import { INestApplicationContext, Logger } from '@nestjs/common';
import { RequestContext } from '../common/request-context';
import { PaymentLinksService } from '../modules/orders/payment-links.service';
import { Enrollment } from '../modules/scheduling/entities/enrollment.entity';
import { Event } from '../modules/scheduling/entities/event.entity';
import { Student } from '../modules/students/student.entity';

/**
 * A payment link waiting to be paid, holding its seat (issue 9 demo data): sent as the admin would
 * from Add student, so its mail is in the outbox and its page works with the demo provider.
 */
export async function seedDemoPaymentLink(app: INestApplicationContext, ctx: RequestContext): Promise<void> {
  const em = app.get(EntityManager);
  const sessions = await em.find(Event, { organization: ctx.organizationId, status: 'active', startsAt: { $gt: new Date() }, priceCents: { $gt: 0 } }, { orderBy: { startsAt: 'asc' }, limit: 5 });
  const students = await em.find(Student, { organization: ctx.organizationId }, { orderBy: { createdAt: 'desc', id: 'asc' }, limit: 20 });
  for (const session of sessions) {
    const enrolled = new Set((await em.find(Enrollment, { event: session.id, status: 'active' })).map((e) => e.student.id));
    const student = students.find((s) => !enrolled.has(s.id));
    if (!student) continue;
    try {
      await app.get(PaymentLinksService).send(ctx, student.id, session.id);
      return;
    } catch (error) {
      // A full session: try the next one.
      new Logger('DemoSeed').debug(`No demo payment link in ${session.name}: ${(error as Error).message}`);
    }
  }
}
