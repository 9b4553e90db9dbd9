import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ProductsService } from '../products/products.service';
import { WalletService } from '../wallet/wallet.service';
import { Subscription } from './entities/subscription.entity';

/**
 * A membership product's holding follows its subscription (issue 24), in the caller's transaction:
 * active with a period end: that period's bookings (WalletService.membershipPeriod: the first
 * period starts the holding, a later one renews it; once per period); not active (cancelled,
 * expired: a failed renewal): the holding ends now. Nothing for a product that grants no membership.
 */
@Injectable()
export class SubscriptionMembership {
  constructor(
    private readonly products: ProductsService,
    private readonly wallet: WalletService,
  ) {}

  async follow(em: EntityManager, sub: Subscription): Promise<void> {
    if (!sub.productId || !sub.productPriceId) return;
    const organizationId = sub.organization.id;
    const sold = await this.products.soldProduct(organizationId, sub.productId, sub.productPriceId);
    const price = sold?.price;
    if (!price || price.grant !== 'membership') return;
    if (sub.status !== 'active') {
      await this.wallet.endMembership({ organizationId, subscriptionId: sub.id }, em);
      return;
    }
    if (!sub.currentPeriodEnd) return;
    await this.wallet.membershipPeriod(
      {
        organizationId,
        studentId: sub.student.id,
        subscriptionId: sub.id,
        label: sub.planName.slice(0, 200) || 'Membership',
        bookings: price.membershipBookings ?? 0,
        unlimited: price.membershipUnlimited,
        coversActivityIds: price.coversActivityIds,
        coversCategoryIds: price.coversCategoryIds,
        productId: sub.productId,
        orderId: sub.orderId ?? null,
        periodEnd: new Date(sub.currentPeriodEnd),
      },
      em,
    );
  }
}
