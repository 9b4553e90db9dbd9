import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { APPOINTMENT_MESSAGES as M } from '@studio/contracts';
import { notFound } from '../../common/api-error';
import type { RequestContext } from '../../common/request-context';
import { UUID } from './appointment-locks';
import { APPOINTMENT_VIEW_SELECT, AppointmentViewRow } from './appointment-view.query';
import { BusyInterval, BusyIntervalRow, busyIntervalsQuery, toBusyInterval } from './busy-intervals.query';

/*
 * Appointments read (issue 22): as the admin, the mails, the order drawer and the sync module see
 * them (APPOINTMENT_VIEW_SELECT), what a refund quote needs, and an instructor's busy time for the
 * slot engine. Reads only; the caller passes its `em` when it reads inside its own transaction.
 */
@Injectable()
export class AppointmentReads {
  constructor(private readonly em: EntityManager) {}

  /**
   * What Remove student's refund quote needs of an appointment of the organization that is not
   * cancelled: its order, its start and the course's cancellation policy. 404 otherwise.
   */
  async removalContext(
    ctx: Pick<RequestContext, 'organizationId'>,
    appointmentId: string,
  ): Promise<{ orderId: string | null; startsAt: Date; cancelPolicyId: number }> {
    if (!UUID.test(appointmentId)) throw notFound(M.notFound);
    const [row] = await this.em.getConnection().execute<{ order_id: string | null; starts_at: Date; cancel_policy_id: number }[]>(
      `select ap.order_id, ap.starts_at, a.cancel_policy_id
         from appointment ap join activity a on a.id = ap.activity_id
        where ap.id = ? and ap.organization_id = ? and ap.status <> 'cancelled'`,
      [appointmentId, ctx.organizationId],
    );
    if (!row) throw notFound(M.notFound);
    return { orderId: row.order_id, startsAt: new Date(row.starts_at), cancelPolicyId: Number(row.cancel_policy_id) };
  }

  /** Appointments as the admin sees them (APPOINTMENT_VIEW_SELECT), by a where clause on `ap`. */
  async views(em: EntityManager, where: string, params: unknown[], tail = ''): Promise<AppointmentViewRow[]> {
    return em.execute<AppointmentViewRow[]>(`${APPOINTMENT_VIEW_SELECT} where ${where} ${tail}`, params);
  }

  /** One appointment of the organization as the admin sees it, or 404. */
  async view(em: EntityManager, organizationId: string, appointmentId: string): Promise<AppointmentViewRow> {
    if (!UUID.test(appointmentId)) throw notFound(M.notFound);
    const [row] = await this.views(em, 'ap.organization_id = ? and ap.id = ?', [organizationId, appointmentId]);
    if (!row) throw notFound(M.notFound);
    return row;
  }

  /** The appointment an order pays for (the latest when several), or null. */
  async viewForOrder(em: EntityManager, organizationId: string, orderId: string): Promise<AppointmentViewRow | null> {
    if (!UUID.test(orderId)) return null;
    const [row] = await this.views(em, 'ap.organization_id = ? and ap.order_id = ?', [organizationId, orderId], 'order by ap.created_at desc limit 1');
    return row ?? null;
  }

  /**
   * The instructor's busy time in [from, to): each non-cancelled appointment's blocked range (any
   * course of theirs, buffers included) and each day of their active sessions, ordered by start, in
   * one statement (busyIntervalsQuery). The slot engine takes it as `busy`.
   */
  async busyIntervals(em: EntityManager, organizationId: string, instructorId: string, from: Date, to: Date): Promise<BusyInterval[]> {
    if (!UUID.test(instructorId)) return [];
    const query = busyIntervalsQuery({ organizationId, instructorId, from, to });
    const rows = await em.execute<BusyIntervalRow[]>(query.sql, query.params);
    return rows.map(toBusyInterval);
  }
}
