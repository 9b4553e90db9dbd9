/**
 * A store order's payment page, after its checkout committed (issue 33, split from
 * store-checkout.service.ts): the confirmation page when nothing is due, else the provider's
 * checkout (a booking's, or a product's, in subscription mode for a subscription), its session kept
 * on the order; a page that cannot start fails the order (a booking's hold released) and answers 502.
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { CHECKOUT_MESSAGES as M, type CheckoutResult } from '@studio/contracts';
import { ApiError } from '../../../common/api-error';
import { crashPoint } from '../../../common/crash-point';
import { Organization } from '../../organizations/organization.entity';
import { OrganizationsService } from '../../organizations/organizations.service';
import { PaymentsPort, type CheckoutSubscription, type CreateCheckoutInput } from '../../payments/payments.port';
import { EnrollmentsService } from '../../scheduling/enrollments.service';
import { Order } from '../entities/order.entity';
import { OrderEvents } from '../order-events';
import { PaymentSettlementService } from '../payment-settlement.service';
import { checkoutResult } from './checkout-shared';
import type { BegunOrder } from './order-writer';

/** What a product's payment page says and starts (the subscription its paid order starts, if any). */
export interface ProductPayment {
  productId: string;
  productName: string;
  email: string;
  subscription?: CheckoutSubscription;
}

@Injectable()
export class StorePaymentStart {
  private readonly logger = new Logger('StoreCheckout');

  constructor(
    private readonly em: EntityManager,
    private readonly payments: PaymentsPort,
    private readonly settlement: PaymentSettlementService,
    private readonly organizations: OrganizationsService,
    private readonly seats: EnrollmentsService,
    private readonly orderEvents: OrderEvents,
  ) {}

  /**
   * After a booking's checkout committed: the confirmation page when nothing is due, else the
   * payment page. A payment page that cannot start fails the order: its seats or time are released
   * (the seat writer releases either) and the points it redeemed given back (order.failed, the
   * loyalty module from the outbox).
   */
  forBooking(
    organization: Organization,
    order: Order,
    total: number,
    pay: { token: string; expiresAt: Date; partySize: number; email: string; activityId: string; free: boolean },
  ): Promise<CheckoutResult> {
    const pages = this.organizations.appStoreUrl(organization);
    const confirmationUrl = `${pages}/checkout/complete?order=${order.id}&token=${pay.token}`;
    if (total === 0 || pay.free) return Promise.resolve(checkoutResult(order, null, confirmationUrl, null));
    return this.start(
      order,
      {
        organizationId: organization.id,
        orderId: order.id,
        lines: [{ name: `${order.description} × ${pay.partySize}`.slice(0, 250), unitAmountCents: total, quantity: 1 }],
        customerEmail: pay.email,
        successUrl: confirmationUrl,
        cancelUrl: `${pages}/activity/${pay.activityId}`,
        expiresAt: pay.expiresAt,
      },
      async (em) => {
        await this.seats.releaseHold({ organizationId: organization.id }, em, order.id);
        await this.orderEvents.publish(em, { type: 'order.failed', organizationId: organization.id, orderId: order.id });
      },
    );
  }

  /** After a product's checkout committed: the confirmation page when nothing is due, else the payment page. */
  forProduct(organization: Organization, order: Order, begun: BegunOrder, product: ProductPayment): Promise<CheckoutResult> {
    const pages = this.organizations.appStoreUrl(organization);
    const confirmationUrl = `${pages}/checkout/complete?order=${order.id}&token=${begun.token}`;
    const due = order.totalCents - order.walletCents;
    if (due === 0) return Promise.resolve(checkoutResult(order, null, confirmationUrl, null));
    return this.start(order, {
      organizationId: organization.id,
      orderId: order.id,
      lines: [{ name: product.productName.slice(0, 250), unitAmountCents: due, quantity: 1 }],
      customerEmail: product.email,
      successUrl: confirmationUrl,
      cancelUrl: `${pages}/checkout?product_id=${product.productId}`,
      expiresAt: begun.expiresAt,
      ...(product.subscription ? { subscription: product.subscription } : {}),
    });
  }

  /**
   * The payment page of a pending store order: its session id kept on the order, or, when the
   * provider cannot start it, the order failed (with `onFailure` in the same transaction: a
   * session's hold released) and the buyer told so (502).
   */
  private async start(
    order: Order,
    checkout: CreateCheckoutInput,
    onFailure?: (em: EntityManager) => Promise<void>,
  ): Promise<CheckoutResult> {
    // Resumed with its page recorded: the same page again.
    if (order.checkoutSessionId && order.checkoutUrl) return checkoutResult(order, order.checkoutUrl, checkout.successUrl, checkout.expiresAt);
    crashPoint('checkout.before-page');
    let started: { sessionId: string; url: string };
    try {
      // Keyed by the order and its expiry at the provider: a resumed checkout gets the same page.
      started = await this.payments.createCheckout(checkout);
    } catch (error) {
      this.logger.error(`Checkout of store order ${order.id} failed: ${(error as Error).message}`);
      await this.em.fork().transactional(async (em) => {
        // Only an order still without a page: a resumed twin of this call may have made it meanwhile.
        const failed = await em.nativeUpdate(Order, { id: order.id, status: 'pending', checkoutSessionId: null }, { status: 'failed' });
        if (failed > 0) await onFailure?.(em);
      });
      throw new ApiError(HttpStatus.BAD_GATEWAY, M.paymentFailed);
    }
    // Recorded only while the order is pending (its hold alive); otherwise the page is closed at once.
    const { recorded, order: now } = await this.settlement.recordPage(checkout.organizationId, order.id, started);
    if (recorded) return checkoutResult(order, started.url, checkout.successUrl, checkout.expiresAt);
    // Paid meanwhile (a resumed retry after the buyer paid): the order as it stands.
    if (now?.status === 'paid') return checkoutResult(now, null, checkout.successUrl, null);
    throw new ApiError(HttpStatus.CONFLICT, M.checkoutEnded);
  }
}
