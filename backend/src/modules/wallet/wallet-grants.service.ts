import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { formatCents, packExpiresAt, WALLET_KIND_LABELS } from '@studio/contracts';
import { AppSecret } from '../../common/app-secret';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { JOB_QUEUE, type JobQueue } from '../../queue/job-queue';
import { MailService } from '../notifications/mail.service';
import { mailSubject, oneLine } from '../notifications/mail-compose';
import { OrderEvents } from '../orders/order-events';
import { StudentsService } from '../students/students.service';
import { giftCardCode, hashGiftCardCode } from './gift-card-code';
import { grantingLines, type GrantingLineRow } from './paid-order-lines.query';
import { WalletService } from './wallet.service';

export const WALLET_QUEUE = 'wallet';
export const EXPIRE_DUE_JOB = 'expire-due';
/** The periodic sweep that expires packs, gift cards and memberships whose time has come. */
const SWEEP_SCHEDULE = 'wallet-expiry-sweep';
const SWEEP_EVERY_MS = 60_000;
const SECRET_NAME = 'gift_card';


/**
 * What a paid store order grants (issue 24), from `store_order.paid` (the outbox: at least once):
 * a class pack line grants credits × quantity, valid from the payment for the product's validity;
 * a gift card line makes its recipient a student, grants them the line's amount with the hash of
 * the card's code, and mails them the code. Each line grants once (`order:<orderId>:line:<lineId>`)
 * and mails once (its dedupe key), however often the event comes. And the sweep: every minute
 * (a queue schedule; in-process in the demo), WalletService.expireDue.
 */
@Injectable()
export class WalletGrantsService implements OnModuleInit {
  private readonly logger = new Logger('WalletGrants');
  /** The key of gift card codes (app_secret `gift_card`, or BOOKING_LINK_SECRET as the booking links read it). */
  private readonly secret: AppSecret;

  constructor(
    private readonly em: EntityManager,
    private readonly wallet: WalletService,
    private readonly students: StudentsService,
    private readonly mail: MailService,
    private readonly orderEvents: OrderEvents,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secret = new AppSecret(em, config, SECRET_NAME);
  }

  onModuleInit(): void {
    this.orderEvents.on('store_order.paid', 'wallet.order-grants', (e) => this.grantOrder(e.organizationId, e.orderId));
    this.queue.process(WALLET_QUEUE, async (job) => {
      if (job.name === EXPIRE_DUE_JOB) {
        const expired = await this.wallet.expireDue();
        if (expired > 0) this.logger.log(`Expired ${expired} holding(s)`);
      }
    });
    if (this.queue.runsWorkers)
      void this.queue
        .upsertScheduler(WALLET_QUEUE, SWEEP_SCHEDULE, EXPIRE_DUE_JOB, {}, { everyMs: SWEEP_EVERY_MS, attempts: 3, backoffMs: 10_000 })
        .catch((error: Error) => this.logger.error(`The wallet's expiry sweep is not scheduled: ${error.message}`));
  }

  /** The grants of a paid order's pack and gift-card lines (each once). */
  async grantOrder(organizationId: string, orderId: string, paidAt = new Date()): Promise<void> {
    const lines = await grantingLines(this.em.fork(), organizationId, orderId);
    for (const line of lines) {
      if (line.grant_kind === 'pack') await this.grantPack(organizationId, line, paidAt);
      else await this.grantGiftCard(organizationId, line);
    }
  }

  /** The code of a gift card line (the same every time: derived from its key with the app's secret). */
  async codeFor(orderId: string, lineId: string): Promise<string> {
    return giftCardCode(await this.secret.get(), lineKey(orderId, lineId));
  }

  private async grantPack(organizationId: string, line: GrantingLineRow, paidAt: Date): Promise<void> {
    if (!line.pack_credits) return;
    await this.wallet.grant({
      organizationId,
      studentId: line.student_id,
      kind: 'pack',
      label: oneLine(line.description).slice(0, 200) || WALLET_KIND_LABELS.pack,
      amount: line.pack_credits * line.quantity,
      expiresAt: packExpiresAt(paidAt, line.pack_expires_after_quantity, line.pack_expires_after_unit) ?? undefined,
      coversActivityIds: line.covers_activity_ids,
      coversCategoryIds: line.covers_category_ids?.map(Number) ?? null,
      productId: line.product_id,
      orderId: line.order_id,
      key: lineKey(line.order_id, line.line_id),
    });
  }

  /**
   * A gift card line: the recipient (found by email or created) holds the line's amount, found by
   * its code's hash; the recipient is mailed the code, the balance, who sent it and the message.
   * A line without a recipient (none was asked before issue 24) goes to the buyer.
   */
  private async grantGiftCard(organizationId: string, line: GrantingLineRow): Promise<void> {
    const cents = Number(line.unit_price_cents) * Number(line.quantity) - Number(line.discount_cents);
    if (cents <= 0) return;
    const code = await this.codeFor(line.order_id, line.line_id);
    const buyer = `${line.buyer_first_name} ${line.buyer_last_name}`.trim() || line.buyer_email;
    const recipientEmail = line.recipient_email ?? line.buyer_email;
    const recipientName = line.recipient_name ?? buyer;
    await this.em.fork().transactional(async (em) => {
      const [first, ...rest] = recipientName.trim().split(/\s+/);
      const recipient = await this.students.findOrCreateByEmail({ organizationId }, em, {
        first_name: first ?? '',
        last_name: rest.join(' '),
        email: recipientEmail,
      });
      await this.wallet.grant(
        {
          organizationId,
          studentId: recipient.id,
          kind: 'gift_card',
          label: `Gift card from ${oneLine(buyer)}`.slice(0, 200),
          amount: cents,
          codeHash: hashGiftCardCode(code)!,
          productId: line.product_id,
          orderId: line.order_id,
          key: lineKey(line.order_id, line.line_id),
        },
        em,
      );
    });
    const hello = recipientName.trim() ? `Hello ${oneLine(recipientName).split(' ')[0]},` : 'Hello,';
    await this.mail.enqueue({
      to: recipientEmail,
      subject: mailSubject`${buyer} sent you a ${formatCents(cents)} gift card`,
      text: [
        hello,
        '',
        `${oneLine(buyer)} sent you a gift card for ${line.organization_name} worth ${formatCents(cents)}.`,
        ...(line.gift_message?.trim() ? ['', 'Their message:', line.gift_message.trim()] : []),
        '',
        `Your code: ${code}`,
        `Balance: ${formatCents(cents)}`,
        '',
        `Enter the code at ${line.organization_name}'s online store when you pay: it pays in part or in whole, and what is left stays on the card.`,
        '',
        line.organization_name,
      ].join('\n'),
      dedupeKey: `gift-card:${line.order_id}:${line.line_id}`,
    });
  }
}

/** The grant key of an order line (a pack's or a gift card's): one grant per line. */
export const lineKey = (orderId: string, lineId: string) => `order:${orderId}:line:${lineId}`;
