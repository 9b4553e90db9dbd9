import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { canCancelSubscription, SUBSCRIPTION_MESSAGES as M } from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { PaymentNotFoundError, PaymentsPort } from '../payments/payments.port';
import { Subscription } from './entities/subscription.entity';
import { OrderActivityService } from './order-activity.service';
import { SubscriptionMembership } from './subscription-membership';

/**
 * An admin's cancel lasts at most this long at the provider (Stripe's client gives up sooner): an
 * intent older than this belongs to a request that died, and a new cancel takes it over.
 */
const CANCEL_LEASE_MS = 2 * 60_000;

/**
 * The admin's "cancel now" of a subscription (spec 001 §7 DELETE), in three steps so that no
 * transaction is open while the payment provider is asked (ARCHITECTURE.md: no outside call inside a
 * database transaction):
 *
 * 1. Under the row's lock: the checks (404, 409 cancelled or expired, 409 another provider's), and
 *    the intent recorded on the row (`cancel_requested_at`, `cancel_requested_by`), committed. A
 *    second cancel while one waits on the provider is refused (409 "Subscription is being
 *    cancelled"), so two cancels at once ask the provider once.
 * 2. No transaction: the provider cancels. It is idempotent (one it already ended answers that end).
 *    A refusal or no answer withdraws the intent (502; the admin may try again at once).
 * 3. Under the row's lock again: the answer recorded (status cancelled, when, the audit line naming
 *    the admin, a membership's holding ended), once: `markCancelled` does nothing to a row no longer
 *    active, as when the provider's own announcement of the cancel (Stripe's
 *    customer.subscription.deleted, SubscriptionsService.applyChange) was applied in between; that one
 *    names the admin too, from the intent.
 *
 * A process that dies between 1 and 3 leaves the intent: the provider's announcement records the
 * cancel (as the admin's), and a cancel retried after CANCEL_LEASE_MS asks the provider again.
 */
@Injectable()
export class SubscriptionCancel {
  private readonly logger = new Logger('Subscriptions');

  constructor(
    private readonly em: EntityManager,
    private readonly payments: PaymentsPort,
    private readonly activity: OrderActivityService,
    private readonly membership: SubscriptionMembership,
  ) {}

  async cancel(ctx: RequestContext, id: string): Promise<void> {
    const where = { id, organization: ctx.organizationId };
    const intent = await this.em.fork().transactional(async (em) => {
      const sub = await em.findOne(Subscription, where, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!sub) throw notFound(M.notFound);
      if (!canCancelSubscription(sub.status)) throw new ApiError(HttpStatus.CONFLICT, M.alreadyCancelled);
      if (sub.provider !== this.payments.provider) {
        throw new ApiError(HttpStatus.CONFLICT, `${M.cancelFailed}: it is billed by the ${sub.provider} provider, and ${this.payments.provider} is configured`);
      }
      const now = new Date();
      if (sub.cancelRequestedAt && now.getTime() - sub.cancelRequestedAt.getTime() < CANCEL_LEASE_MS) {
        throw new ApiError(HttpStatus.CONFLICT, M.cancelInProgress);
      }
      sub.cancelRequestedAt = now;
      sub.cancelRequestedBy = ctx.userId || null;
      return { requestedAt: now, provider: sub.provider, providerSubscriptionId: sub.providerSubscriptionId };
    });

    let cancelledAt: Date;
    try {
      ({ cancelledAt } = await this.payments.cancelSubscription(intent.providerSubscriptionId));
    } catch (error) {
      this.logger.error(`Cancelling ${intent.provider} subscription ${intent.providerSubscriptionId} failed: ${(error as Error).message}`);
      // Withdrawn only if still this request's (a later cancel that took it over keeps its own).
      await this.em.fork().nativeUpdate(Subscription, { ...where, cancelRequestedAt: intent.requestedAt }, { cancelRequestedAt: null, cancelRequestedBy: null });
      const why = error instanceof PaymentNotFoundError ? ': the payment provider does not know it' : '';
      throw new ApiError(HttpStatus.BAD_GATEWAY, `${M.cancelFailed}${why}`);
    }

    await this.em.fork().transactional(async (em) => {
      const sub = await em.findOneOrFail(Subscription, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      await this.markCancelled(em, sub, cancelledAt);
    });
  }

  /**
   * Records a subscription as cancelled (its row locked by the caller), forward only: nothing for one
   * no longer active. With an admin's cancel under way (the intent), the audit line is that admin's
   * "cancelled now"; without, the provider's own cancel. The intent is cleared either way. Answers
   * whether it changed the status.
   */
  async markCancelled(em: EntityManager, sub: Subscription, cancelledAt: Date | null): Promise<boolean> {
    const byAdmin = !!sub.cancelRequestedAt;
    const actorUserId = byAdmin ? (sub.cancelRequestedBy ?? null) : null;
    sub.cancelRequestedAt = null;
    sub.cancelRequestedBy = null;
    if (sub.status !== 'active') return false;
    sub.status = 'cancelled';
    sub.cancelledAt = cancelledAt;
    this.activity.record(em, {
      organizationId: sub.organization.id,
      subscriptionId: sub.id,
      orderId: sub.orderId ?? null,
      action: 'subscription_cancelled',
      actorUserId,
      detail: byAdmin ? `${sub.planName}: cancelled now, no further payments` : `${sub.planName}: cancelled at the payment provider`,
    });
    await this.membership.follow(em, sub);
    return true;
  }
}
