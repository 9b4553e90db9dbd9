import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { StudentsService } from '../students/students.service';
import { Order } from './entities/order.entity';

/** Orders. Enrolling directly from the back office is a free order from source workbench. */
@Injectable()
export class OrdersService {
  constructor(
    private readonly em: EntityManager,
    private readonly students: StudentsService,
    private readonly enrollments: EnrollmentsService,
  ) {}

  /** Next order number of the organization; the counter row serialises concurrent orders. */
  private async nextOrderNumber(em: EntityManager, organizationId: string): Promise<number> {
    const [row] = await em.execute<{ last_number: number }[]>(
      `insert into order_counter (organization_id, last_number) values (?, 1001)
       on conflict (organization_id) do update set last_number = order_counter.last_number + 1
       returning last_number`,
      [organizationId],
    );
    return Number(row.last_number);
  }

  /** Enrolls the student in the session with a zero-total workbench order, in one transaction. */
  async enrollDirectly(ctx: RequestContext, studentId: string, eventId: string) {
    return this.em.transactional(async (em) => {
      const student = await this.students.requireStudent(ctx, studentId);
      const enrollment = await this.enrollments.enroll(ctx, em, student, eventId);
      const order = em.create(Order, {
        organization: em.getReference(Organization, ctx.organizationId),
        orderNumber: await this.nextOrderNumber(em, ctx.organizationId),
        student,
        status: 'paid',
        source: 'workbench',
        totalCents: 0,
        eventId,
        description: enrollment.event.name,
      });
      enrollment.orderId = order.id;
      await em.flush();
      return { enrollment, order };
    });
  }
}
