/**
 * A paid store order's confirmation mail (issue 33, split from store-checkout.service.ts), one per
 * order (its key): a session's (the time in its location's zone, where, a calendar file, the
 * course's own text, the answers, the receipt and the manage link), an appointment's (the same for
 * its time) and a product's (the receipt, what a subscription renews at, a lead magnet's download).
 * Composed with the mail helper of notifications (mail-compose).
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { formatCents, formatZonedDateTime } from '@studio/contracts';
import { BookingLinksService } from '../../booking-links/booking-links.service';
import { bookingMailHtml, manageLinkLine } from '../../booking-links/manage-link-mail';
import { calendarAttachment, calendarFile, mailSubject, oneLine } from '../../notifications/mail-compose';
import { MailService } from '../../notifications/mail.service';
import { ProductsService } from '../../products/products.service';
import { EnrollmentsService } from '../../scheduling/enrollments.service';
import { OrderLine } from '../entities/order-line.entity';
import { Order } from '../entities/order.entity';
import { storeOrderAppointment, type StoreOrderAppointmentRow } from '../store-appointment.query';
import { storeSession, type StoreSessionRow } from '../store-session.query';
import { StoreWalletPayment } from '../store-wallet';
import { answerSets } from './checkout-shared';

@Injectable()
export class StoreConfirmationMails {
  constructor(
    private readonly em: EntityManager,
    private readonly mail: MailService,
    private readonly links: BookingLinksService,
    private readonly seats: EnrollmentsService,
    private readonly products: ProductsService,
    private readonly storeWallet: StoreWalletPayment,
  ) {}

  /** store_order.paid: the order's confirmation, by what it bought (a session, an appointment or a product). */
  async confirm(organizationId: string, orderId: string): Promise<void> {
    const em = this.em.fork();
    const order = await em.findOne(Order, { id: orderId, organization: organizationId }, { populate: ['student', 'organization'] });
    if (!order?.accessTokenHash) return;
    if (!order.eventId) {
      const appointment = await storeOrderAppointment(em, organizationId, order.id);
      return appointment ? this.confirmAppointment(em, order, appointment) : this.confirmProduct(em, order);
    }
    const session = await storeSession(em, organizationId, order.eventId, { bookable: false });
    if (session) await this.confirmSession(em, order, session);
  }

  /**
   * A session's confirmation with the course's own text (auto_email), the session's time in its
   * location's zone, where it is (or its meeting link), a calendar file and the receipt.
   */
  private async confirmSession(em: EntityManager, order: Order, session: StoreSessionRow): Promise<void> {
    const organizationId = order.organization.id;
    const lines = await em.find(OrderLine, { order: order.id });
    const party = lines.find((l) => l.kind === 'seat')?.quantity ?? 1;
    // A mail's reader may be anywhere: the zone is always named.
    const when = formatZonedDateTime(session.starts_at, session.timezone);
    const where = session.online
      ? `Online${session.meeting_join_url ? `: ${session.meeting_join_url}` : ''}`
      : `${session.location_name}, ${session.address}`;
    const enrollmentId = await this.seats.activeForOrder(organizationId, order.id);
    const manage = enrollmentId ? await this.links.urlFor(organizationId, 'enrollment', enrollmentId) : null;
    const text = [
      `Hello ${greeted(order)},`,
      '',
      `You're booked in ${session.name} (${party === 1 ? '1 seat' : `${party} seats`}).`,
      '',
      ...(await this.bookingLines(em, order, when, where, session.auto_email)),
      ...(manage ? ['', manageLinkLine(manage)] : []),
      '',
      order.organization.name,
    ].join('\n');
    await this.sendBooked(order, session.name, session, where, text, manage);
  }

  /**
   * An appointment order's confirmation (issue 22): the course's own text, the time in the
   * location's zone (named), where it is, a calendar file at the appointment's instants and the receipt.
   */
  private async confirmAppointment(em: EntityManager, order: Order, appointment: StoreOrderAppointmentRow): Promise<void> {
    const when = formatZonedDateTime(appointment.starts_at, appointment.timezone);
    const where = appointment.online ? 'Online' : `${appointment.location_name}, ${appointment.address}`;
    const party = appointment.guest_count + 1;
    const manage = await this.links.urlFor(order.organization.id, 'appointment', appointment.appointment_id);
    const text = [
      `Hello ${greeted(order)},`,
      '',
      `Your appointment for ${appointment.course_name} is booked (${party === 1 ? '1 person' : `${party} people`}).`,
      '',
      ...(await this.bookingLines(em, order, when, where, appointment.auto_email)),
      '',
      manageLinkLine(manage),
      '',
      order.organization.name,
    ].join('\n');
    await this.sendBooked(order, appointment.course_name, appointment, where, text, manage);
  }

  /** A product order's confirmation: the receipt of a paid one (a subscription's says what it renews at), the download of a lead magnet. */
  private async confirmProduct(em: EntityManager, order: Order): Promise<void> {
    const line = await em.findOne(OrderLine, { order: order.id, kind: 'product' });
    if (!line?.productId) return;
    const sold = await this.products.soldProduct(order.organization.id, line.productId, line.productPriceId ?? null);
    const kind = sold?.price?.category ?? 'oneTime';
    const name = oneLine(line.description);
    const studio = order.organization.name;
    const hello = greeted(order) ? `Hello ${greeted(order)},` : 'Hello,';
    if (kind === 'leadMagnet') {
      const download = sold?.product.downloadUrl ?? null;
      await this.mail.enqueue({
        to: order.student.email,
        subject: mailSubject`Your download: ${name}`,
        text: [
          hello,
          '',
          download ? `Here is ${name}: ${download}` : `Thank you for asking for ${name}. ${studio} will send it to you shortly.`,
          '',
          studio,
        ].join('\n'),
        dedupeKey: `store-download:${order.id}`,
      });
      return;
    }
    const renews =
      kind === 'subscription' && sold?.price?.renewalIntervalUnit
        ? ` It renews at ${renewalText(order.totalCents, sold.price.renewalIntervalUnit, sold.price.renewalIntervalQuantity ?? 1)} until you cancel.`
        : '';
    await this.mail.enqueue({
      to: order.student.email,
      subject: mailSubject`Thank you for your order: ${name}`,
      text: [
        hello,
        '',
        `Thank you for buying ${name}.${renews}`,
        ...(line.recipientEmail ? ['', `Your gift card was sent to ${line.recipientEmail}.`] : []),
        '',
        ...(await this.paidLines(order)),
        ...(order.receiptUrl ? [`Receipt: ${order.receiptUrl}`] : []),
        '',
        studio,
      ].join('\n'),
      dedupeKey: `store-confirmation:${order.id}`,
    });
  }

  /** A booking's confirmation, once per order (its key), with its calendar file; with a manage link, its HTML too. */
  private sendBooked(
    order: Order,
    title: string,
    period: { starts_at: string | Date; ends_at: string | Date },
    where: string,
    text: string,
    manage: string | null,
  ): Promise<string> {
    return this.mail.enqueue({
      to: order.student.email,
      subject: mailSubject`You're booked: ${title}`,
      text,
      ...(manage ? { html: bookingMailHtml(text, manage) } : {}),
      attachments: [calendarAttachment(orderCalendarFile(order, title, period, where), 'booking.ics')],
      dedupeKey: `store-confirmation:${order.id}`,
    });
  }

  /** What a booking's confirmation says after its first line: when, where, the course's own text, what was paid, the receipt and the answers. */
  private async bookingLines(em: EntityManager, order: Order, when: string, where: string, autoEmail: string): Promise<string[]> {
    return [
      `When: ${when}`,
      `Where: ${where}`,
      ...(autoEmail.trim() ? ['', autoEmail.trim()] : []),
      '',
      ...(await this.paidLines(order)),
      ...(order.receiptUrl ? [`Receipt: ${order.receiptUrl}`] : []),
      ...answerLines(await answerSets(em, order.organization.id, order.id)),
    ];
  }

  /**
   * What a confirmation says was paid: the card's part ("Order #12: $20.00 paid.", or "free"), and
   * what the buyer's holdings paid ("Paid with 10-class pack: 1 credit.").
   */
  private async paidLines(order: Order): Promise<string[]> {
    const card = Math.max(0, order.totalCents - order.walletCents);
    const paidWith = await this.storeWallet.paidWith(order.organization.id, order.id);
    const covered = paidWith.length > 0 && card === 0;
    return [
      `Order #${order.orderNumber}: ${card > 0 ? `${formatCents(card)} paid` : covered ? 'nothing more to pay' : 'free'}.`,
      ...paidWith.map((p) => `Paid with ${p.label}: ${p.amount}.`),
    ];
  }
}

/** The confirmation's calendar file of a store order's booking (a session or an appointment): the order's UID. */
function orderCalendarFile(order: Order, title: string, period: { starts_at: string | Date; ends_at: string | Date }, where: string): string {
  return calendarFile({
    uid: `${order.id}@studio`,
    title,
    startsAt: period.starts_at,
    endsAt: period.ends_at,
    location: where,
    description: `${order.organization.name}: order #${order.orderNumber}`,
    organizer: order.organization.name,
  });
}

/** Whom a store order's confirmation greets: the first name typed for it (the student's on older orders). */
const greeted = (order: Order) => oneLine(order.buyerFirstName ?? order.student.firstName);

/** "$89.00 every month", "$10.00 every 2 weeks". */
function renewalText(cents: number, unit: string, count: number): string {
  const singular = unit.replace(/s$/, '');
  return `${formatCents(cents)} every ${count === 1 ? singular : `${count} ${unit}`}`;
}

/** The answers in the confirmation mail: "Your answers", then label: value (per ticket, under Ticket N). */
function answerLines(sets: { ticket: number | null; answers: { label: string; value: string }[] }[]): string[] {
  if (!sets.some((set) => set.answers.length > 0)) return [];
  const lines = ['', 'Your answers:'];
  for (const set of sets) {
    if (set.ticket !== null) lines.push(`Ticket ${set.ticket}:`);
    for (const a of set.answers) {
      // A multi-line answer stays on its line; an unanswered field shows a dash.
      const value = a.value.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).join(' / ') || '—';
      lines.push(`${set.ticket !== null ? '  ' : ''}${oneLine(a.label)}: ${value}`);
    }
  }
  return lines;
}
