import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { formatCents, formatZonedDateTime, SESSION_CANCEL_MESSAGES, type SessionCancelOutcome } from '@studio/contracts';
import { MailService } from '../notifications/mail.service';
import { mailSubject, oneLine } from '../notifications/mail-compose';
import { CancelledSeat, SessionCancellationService } from '../scheduling/session-cancellation.service';
import { SessionCancelEvents, SessionEvents } from '../scheduling/session-events';
import { PaymentLinksService } from './payment-links.service';
import { WalletService } from '../wallet/wallet.service';
import { RefundsService } from './refunds.service';

/**
 * What follows the studio cancelling a session (issue 23), from the outbox:
 *
 * - session.seat_cancelled, once per student: refunded in full through the refunds ledger (the
 *   enrollment removed in the transaction that records the refund) or, with "No refund", the seat
 *   removed; the student mailed what was cancelled, why, and the refund (dedupe key per enrollment);
 *   the outcome recorded on the seat's row. Idempotent at every step: the ledger row per enrollment
 *   (its id the provider's idempotency key), a removed seat stays removed, the mail's dedupe key, and
 *   the outcome written once. A crash anywhere is finished by the next delivery.
 * - session.cancelled: its unpaid payment links (and store checkouts) cancelled, their seats freed.
 */
@Injectable()
export class SessionCancelHandler implements OnModuleInit {
  private readonly logger = new Logger('SessionCancel');

  constructor(
    private readonly cancelEvents: SessionCancelEvents,
    private readonly sessionEvents: SessionEvents,
    private readonly cancellations: SessionCancellationService,
    private readonly refunds: RefundsService,
    private readonly paymentLinks: PaymentLinksService,
    private readonly mail: MailService,
    private readonly wallet: WalletService,
  ) {}

  onModuleInit(): void {
    this.cancelEvents.on('session.seat_cancelled', 'orders.session-cancel', (e) => this.seatCancelled(e.organizationId, e.enrollmentId));
    this.sessionEvents.on('session.cancelled', 'orders.session-cancel-links', async (e) => {
      const cancelled = await this.paymentLinks.cancelForSession(e.organizationId, e.eventId);
      if (cancelled > 0) this.logger.log(`Session ${e.eventId} cancelled: ${cancelled} unpaid payment link(s) cancelled`);
    });
  }

  /** One student of a cancelled session; nothing when its outcome is recorded already. */
  async seatCancelled(organizationId: string, enrollmentId: string): Promise<void> {
    const seat = await this.cancellations.seat(organizationId, enrollmentId);
    if (!seat || seat.outcome !== 'pending') return;
    let result: { outcome: Exclude<SessionCancelOutcome, 'pending'>; cents: number; note: string | null } = {
      outcome: 'no_refund',
      cents: 0,
      note: null,
    };
    if (seat.refund === 'full') {
      result = await this.refunds.refundCancelledSeat(organizationId, {
        enrollmentId,
        orderId: seat.orderId,
        reason: SESSION_CANCEL_MESSAGES.ledgerReason(seat.reason),
        actorUserId: seat.cancelledBy,
        refundTo: seat.refundTo,
      });
    }
    // A refund made removed the seat with it; any other outcome removes it here (once).
    await this.cancellations.removeSeat(organizationId, enrollmentId);
    // Issue 24: the studio cancelled, so the membership booking or pack credit that covered the seat
    // always comes back (once per use; a refund made gave it back already).
    const use = await this.wallet.returnBookingUse(organizationId, { enrollmentId }, { actorUserId: seat.cancelledBy ?? undefined });
    await this.mail.enqueue({
      to: seat.email,
      subject: mailSubject`Cancelled: ${seat.sessionName}`,
      text: this.mailText(seat, result, use === 'returned'),
      dedupeKey: `session-cancelled:${enrollmentId}`,
    });
    await this.cancellations.recordOutcome(organizationId, enrollmentId, result.outcome, result.cents, result.note);
  }

  private mailText(seat: CancelledSeat, result: { outcome: SessionCancelOutcome; cents: number }, useReturned = false): string {
    const when = formatZonedDateTime(seat.startsAt, seat.timezone);
    const money =
      result.outcome === 'refunded'
        ? `You are refunded ${formatCents(result.cents)} in full, to the card you paid with. Refunds can take up to 10 days to appear.`
        : result.outcome === 'credited'
          ? `You are refunded ${formatCents(result.cents)} in full, as store credit: it pays for your next booking at ${seat.organizationName}.`
          : result.outcome === 'refund_failed'
          ? `Your refund could not be made automatically; ${seat.organizationName} will contact you about it.`
          : result.outcome === 'no_refund'
            ? 'No refund is made for this cancellation.'
            : 'There was no payment to refund.';
    return [
      `Hello ${seat.firstName},`,
      '',
      `${seat.organizationName} has cancelled ${oneLine(seat.sessionName)} on ${when} at ${oneLine(seat.locationName)}.`,
      '',
      `Reason: ${seat.reason}`,
      '',
      money,
      ...(useReturned ? ['', 'The class credit or membership booking you used is given back.'] : []),
      '',
      'Your seat is released; you do not need to do anything.',
    ].join('\n');
  }
}
