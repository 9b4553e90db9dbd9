import { randomUUID } from 'node:crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { appointmentWhen } from '../scheduling/appointment-mailer';
import { AppointmentReads } from '../scheduling/appointment-reads';
import { AppointmentsService } from '../scheduling/appointments.service';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { EventsService } from '../scheduling/events.service';
import { StudentsService } from '../students/students.service';
import { WalletBookingService } from '../wallet/wallet-booking.service';

/*
 * Enrolling from the back office (spec 000, Add student; issues 22 and 24): a seat in a session or
 * a held appointment, each with a zero-total paid order from source workbench and its one line, in
 * one transaction; optionally booked on the student's membership or class pack.
 */

/** The zero-total workbench order a direct enroll makes. */
type FreeOrder = { id: string; orderNumber: number; totalCents: 0; source: 'workbench' };

@Injectable()
export class DirectEnrollService {
  constructor(
    private readonly em: EntityManager,
    private readonly students: StudentsService,
    private readonly enrollments: EnrollmentsService,
    private readonly appointments: AppointmentsService,
    private readonly appointmentReads: AppointmentReads,
    private readonly events: EventsService,
    private readonly walletBooking: WalletBookingService,
  ) {}

  /**
   * Enrolls the student in the session with a zero-total workbench order, in one transaction. With
   * `holdingId` (issue 24) the seat is booked on the student's membership or class pack: checked
   * under the student's wallet lock before the seat lock, and its use (naming the enrollment and the
   * order) written in the same transaction; a refused use writes nothing (404/409 from the wallet).
   */
  async enrollDirectly(ctx: RequestContext, studentId: string, eventId: string, holdingId?: string) {
    // A student of another organization (404), or a full session (most attempts when a class is in
    // demand), is refused here by one read, without a transaction or a wait on the seat lock; this
    // read may only refuse, enroll() decides in the lock.
    const refusal = await this.enrollments.refusalBeforeLock(ctx, studentId, eventId);
    if (refusal) throw refusal;
    const activityId = holdingId ? await this.events.activityOf(ctx.organizationId, eventId) : null;
    if (holdingId && !activityId) throw notFound('Event not found');
    return this.em.transactional(async (em) => {
      const enrollment = await this.enrollments.enroll(ctx, em, studentId, eventId);
      // The holding, checked under the student's wallet lock taken after the session's seat lock
      // (the order every booking path takes them in, so two never wait on each other).
      const wallet = holdingId && activityId ? await this.walletBooking.check(ctx, em, { studentId, holdingId, activityId, partySize: 1 }) : null;
      const name = enrollment.eventName;
      const order = await this.insertFreeOrder(em, ctx.organizationId, { studentId, kind: 'seat', eventId, description: name });
      // The enrollment's link to its order belongs to the scheduling module (it owns the table):
      // one update right after the order exists, then the commit.
      await this.enrollments.linkOrder(ctx, em, enrollment.id, order.id);
      if (holdingId && wallet) await this.walletBooking.use(ctx, em, { studentId, holdingId, amount: wallet.amount, enrollmentId: enrollment.id, orderId: order.id });
      return { enrollment, order };
    });
  }

  /**
   * Enrolls the student directly in a held appointment (issue 22): the appointment booked (its
   * confirmation mailed) and a zero-total workbench order with an appointment line, in one
   * transaction; the appointment names the order (AppointmentsService.attachOrder: scheduling owns
   * that table). 404 for another organization's student or appointment; 409 when the appointment is
   * for another student, already has an order, is no longer held or its hold ran out. With
   * `holdingId` (issue 24) it is booked on the student's membership (1 booking) or class pack (a
   * credit per person), its use written in the same transaction under the student's wallet lock.
   */
  async enrollAppointment(ctx: RequestContext, studentId: string, appointmentId: string, holdingId?: string) {
    await this.students.requireStudent(ctx, studentId);
    return this.em.transactional(async (em) => {
      const appointment = await this.appointments.lockForOrder(ctx, em, appointmentId, studentId);
      const wallet = holdingId
        ? await this.walletBooking.check(ctx, em, { studentId, holdingId, activityId: appointment.activityId, partySize: 1 + appointment.guestCount })
        : null;
      const view = await this.appointmentReads.view(em, ctx.organizationId, appointment.id);
      const description = `${view.course_name}, ${appointmentWhen(view.starts_at, view.time_zone)}`;
      const order = await this.insertFreeOrder(em, ctx.organizationId, { studentId, kind: 'appointment', eventId: null, description });
      await this.appointments.attachOrder(em, appointment, order.id);
      await this.appointments.book(ctx, em, appointment.id, { confirm: true });
      if (holdingId && wallet) await this.walletBooking.use(ctx, em, { studentId, holdingId, amount: wallet.amount, appointmentId: appointment.id, orderId: order.id });
      return { appointmentId: appointment.id, order };
    });
  }

  /**
   * The zero-total paid workbench order and its one line (a seat of `eventId`, or an appointment) in
   * one statement that also takes the next number: the counter row serialises every order of the
   * organization until commit, so it is taken last, right before the booking's link and the commit
   * (numbers stay without gaps).
   */
  private async insertFreeOrder(
    em: EntityManager,
    organizationId: string,
    o: { studentId: string; kind: 'seat' | 'appointment'; eventId: string | null; description: string },
  ): Promise<FreeOrder> {
    const id = randomUUID();
    const [row] = await em.execute<{ order_number: number }[]>(
      `with n as (
         insert into order_counter (organization_id, last_number) values (?, 1001)
         on conflict (organization_id) do update set last_number = order_counter.last_number + 1
         returning last_number
       ), o as (
         insert into customer_order (id, organization_id, order_number, student_id, status, source, total_cents, event_id, description, created_at)
         select ?, ?, n.last_number, ?, 'paid', 'workbench', 0, ?, ?, ? from n
         returning id, order_number
       ), l as (
         insert into order_line (id, order_id, position, kind, event_id, description, unit_price_cents, quantity)
         select ?, o.id, 0, ?, ?, ?, 0, 1 from o
       )
       select order_number from o`,
      [organizationId, id, organizationId, o.studentId, o.eventId, o.description, new Date(), randomUUID(), o.kind, o.eventId, o.description],
    );
    return { id, orderNumber: Number(row.order_number), totalCents: 0, source: 'workbench' };
  }
}
