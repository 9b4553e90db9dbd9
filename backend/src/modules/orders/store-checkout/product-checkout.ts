/**
 * The store's checkout of a product (issue 21; split out in issue 33): one of it, priced at its
 * current price. One-time: a pending order paid on the payment page and settled like a payment
 * link's (paid: points, confirmation with the receipt); gift cards and credit may pay it (issue 24).
 * Subscription: the same, with the provider's checkout in subscription mode (the paid order starts
 * the subscription). Lead magnet: nothing to pay, the order is recorded paid at 0 and its
 * confirmation mails the download. The buyer is found by email (case-insensitive) or created.
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  CHECKOUT_MESSAGES as M,
  giftRecipientErrors,
  productBuyerErrors,
  walletMoneyRefusal,
  type CheckoutPayload,
  type CheckoutResult,
} from '@studio/contracts';
import { ApiError, notFound } from '../../../common/api-error';
import { Organization } from '../../organizations/organization.entity';
import { ProductsService } from '../../products/products.service';
import { StoreWalletPayment } from '../store-wallet';
import { StoreCheckoutPricing } from './checkout-pricing';
import { StoreCheckoutSettle } from './checkout-settle';
import { buyerOf, requireProofOf } from './checkout-shared';
import { StoreOrderWriter } from './order-writer';
import { StorePaymentStart } from './payment-start';

@Injectable()
export class ProductCheckout {
  constructor(
    private readonly em: EntityManager,
    private readonly products: ProductsService,
    private readonly storeWallet: StoreWalletPayment,
    private readonly pricing: StoreCheckoutPricing,
    private readonly writer: StoreOrderWriter,
    private readonly settle: StoreCheckoutSettle,
    private readonly payment: StorePaymentStart,
  ) {}

  async checkout(organization: Organization, productId: string, input: CheckoutPayload): Promise<CheckoutResult> {
    const found = await this.products.storeProduct(organization.id, productId);
    if (!found) throw notFound(M.productNotFound);
    const { product, price } = found;
    const giftCard = price.grant === 'giftCard';
    const nameErrors = { ...productBuyerErrors(price.category, input), ...giftRecipientErrors(giftCard, input) };
    if (Object.keys(nameErrors).length > 0)
      throw new ApiError(HttpStatus.BAD_REQUEST, Object.values(nameErrors)[0], nameErrors);
    const free = price.category === 'leadMagnet';
    const total = free ? 0 : price.amountCents;
    const subscription = price.category === 'subscription' && price.renewalIntervalUnit ? price : null;
    // Gift cards and credit may pay a one-time product (issue 24), not a subscription nor a gift card.
    const byCard = walletMoneyRefusal({ category: price.category, grant: price.grant });
    if (byCard && (input.use_wallet_money || input.gift_card_code))
      throw new ApiError(HttpStatus.BAD_REQUEST, byCard, { [input.gift_card_code ? 'gift_card_code' : 'use_wallet_money']: byCard });
    const proofStudentId = await this.pricing.pointsStudent(organization, input);
    const { hash, resumed, begun } = await this.writer.resumable(organization, input);

    const order = resumed ?? await this.em.transactional(async (em) => {
      const student = await this.writer.buyer(em, organization, input);
      requireProofOf(student.id, proofStudentId);
      // What the buyer's gift cards and credit pay, under their wallet lock; the card pays the rest.
      const shown = await this.storeWallet.plan(organization.id, proofStudentId, input, null, 1, total, em);
      const due = shown.plan.due_cents;
      const points = free ? 0 : (price.earnedLoyaltyPoints ?? 0);
      const order = await this.writer.write(em, organization, {
        begun,
        requestHash: hash,
        student,
        buyer: buyerOf(input),
        status: due > 0 ? 'pending' : 'paid',
        totalCents: total,
        shown,
        description: product.name,
        line: {
          kind: 'product',
          productId: product.id,
          productPriceId: price.id,
          unitPriceCents: total,
          quantity: 1,
          loyaltyPoints: points,
          // A gift card's recipient (issue 24): the wallet grants and mails the card to them once paid.
          ...(giftCard
            ? { recipientName: input.recipient_name ?? null, recipientEmail: input.recipient_email?.toLowerCase() ?? null, giftMessage: input.gift_message || null }
            : {}),
        },
      });
      // Paid in full by gift cards or credit, the product earns its points as a card payment would.
      if (due > 0) await this.settle.awaitPayment(em, organization.id, order.id, begun.expiresAt);
      else await this.settle.paid(em, organization.id, order.id, student.id, points);
      return order;
    });

    return this.payment.forProduct(organization, order, begun, {
      productId: product.id,
      productName: product.name,
      email: input.email,
      ...(subscription
        ? {
            subscription: {
              intervalUnit: subscription.renewalIntervalUnit!,
              intervalCount: subscription.renewalIntervalQuantity ?? 1,
              studentId: order.student.id,
              productId: product.id,
              productPriceId: price.id,
              planName: product.name,
            },
          }
        : {}),
    });
  }
}
