/**
 * A store order as its buyer sees it (issue 33, split from store-checkout.service.ts): the
 * confirmation page's order, for whoever holds its secret token (anything else is 404), with its
 * lines, totals, points, what the wallet paid, and the session, appointment or product it bought.
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { CHECKOUT_MESSAGES as M, pointsToCents, type PublicOrder } from '@studio/contracts';
import { notFound } from '../../../common/api-error';
import { LoyaltyLedgerService } from '../../loyalty/loyalty-ledger.service';
import { Organization } from '../../organizations/organization.entity';
import { ProductsService } from '../../products/products.service';
import { OrderLine } from '../entities/order-line.entity';
import { Order } from '../entities/order.entity';
import { storeOrderAppointment } from '../store-appointment.query';
import { storeSession } from '../store-session.query';
import { StoreWalletPayment } from '../store-wallet';
import { answerSets, sameHash, tokenHash } from './checkout-shared';

@Injectable()
export class StoreOrderView {
  constructor(
    private readonly em: EntityManager,
    private readonly products: ProductsService,
    private readonly ledger: LoyaltyLedgerService,
    private readonly storeWallet: StoreWalletPayment,
  ) {}

  /** The order as its buyer sees it, for whoever holds its token; anything else is 404. */
  async order(organization: Organization, orderId: string, token: string): Promise<PublicOrder> {
    const em = this.em.fork();
    const order = await em.findOne(
      Order,
      { id: orderId, organization: organization.id },
      { populate: ['student'] },
    );
    if (!order?.accessTokenHash || !sameHash(order.accessTokenHash, tokenHash(token)))
      throw notFound(M.orderNotFound);
    const lines = await em.find(OrderLine, { order: order.id }, { orderBy: { position: 'asc' } });
    const session = order.eventId
      ? await storeSession(em, organization.id, order.eventId, { bookable: false })
      : null;
    const appointment = order.eventId ? null : await storeOrderAppointment(em, organization.id, order.id);
    const answers = await answerSets(em, organization.id, order.id);
    const subtotal = lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0);
    const discount = lines.reduce((sum, l) => sum + l.discountCents, 0);
    const productLine = lines.find((l) => l.kind === 'product' && l.productId);
    const sold = productLine
      ? await this.products.soldProduct(organization.id, productLine.productId!, productLine.productPriceId ?? null)
      : null;
    const pointsCents = pointsToCents(await this.ledger.redeemedForOrder(organization.id, order.id));
    return {
      order_number: order.orderNumber,
      status: order.status,
      store_name: organization.name,
      // What the buyer typed for this order, never the stored student's (issue 31); older orders kept none.
      buyer: { first_name: order.buyerFirstName ?? order.student.firstName, email: order.buyerEmail ?? order.student.email },
      lines: lines.map((l) => ({
        description: l.description,
        quantity: l.quantity,
        unit_price_cents: l.unitPriceCents,
        discount_cents: l.discountCents,
      })),
      subtotal_cents: subtotal,
      discount_cents: discount,
      points_cents: pointsCents,
      total_cents: order.totalCents,
      session: session
        ? {
            name: session.name,
            ...bookedTimeAndPlace(session),
            party_size: lines.find((l) => l.kind === 'seat')?.quantity ?? 1,
          }
        : null,
      appointment: appointment
        ? {
            course_name: appointment.course_name,
            ...bookedTimeAndPlace(appointment),
            party_size: appointment.guest_count + 1,
            status: appointment.status,
          }
        : null,
      product: productLine
        ? {
            name: productLine.description,
            kind: sold?.price?.category ?? 'oneTime',
            renewal_interval_unit: sold?.price?.renewalIntervalUnit ?? null,
            renewal_interval_quantity: sold?.price?.renewalIntervalQuantity ?? null,
            image_url: sold?.imageUrl ?? null,
          }
        : null,
      receipt_url: order.receiptUrl ?? null,
      paid_with: await this.storeWallet.paidWith(organization.id, order.id),
      card_cents: Math.max(0, order.totalCents - order.walletCents),
      answers,
    };
  }
}

/** When and where a booking is, as the order's page shows it (an online one has no address). */
function bookedTimeAndPlace(row: {
  starts_at: string | Date;
  ends_at: string | Date;
  timezone: string;
  location_name: string;
  address: string;
  online: boolean;
}) {
  return {
    starts_at: new Date(row.starts_at).toISOString(),
    ends_at: new Date(row.ends_at).toISOString(),
    timezone: row.timezone,
    location_name: row.location_name,
    address: row.online ? '' : row.address,
    online: row.online,
  };
}
