import { Injectable } from '@nestjs/common';
import { InProcessEvents } from '../../common/in-process-events';
import type { RenewalIntervalUnit, SubscriptionStatus } from '@studio/contracts';
import type { PaymentProviderName } from './payments.port';

/** Who the provider says the subscription is for (the metadata our checkout gives it). */
export interface SubscriptionReference {
  organizationId: string;
  orderId: string | null;
  studentId: string | null;
  productId: string | null;
  productPriceId: string | null;
}

/**
 * What a provider announces about subscriptions (Stripe: customer.subscription.* and invoice.paid
 * webhooks). The orders module keeps the subscriptions and their billing history from these.
 */
export type SubscriptionEvent =
  | {
      type: 'subscription.changed';
      provider: PaymentProviderName;
      providerSubscriptionId: string;
      reference: SubscriptionReference;
      status: SubscriptionStatus;
      /** The provider's plan: what it costs per interval. */
      planName: string | null;
      amountCents: number;
      currency: string;
      intervalUnit: RenewalIntervalUnit;
      intervalCount: number;
      currentPeriodEnd: Date | null;
      cancelledAt: Date | null;
      startedAt: Date;
      /** The provider event's `created` (Unix seconds): an older event never overwrites a newer one. */
      occurredAt: number;
    }
  | {
      type: 'subscription.invoice_paid';
      provider: PaymentProviderName;
      providerSubscriptionId: string;
      /** From the invoice's subscription metadata; null when the invoice does not carry it. */
      organizationId: string | null;
      providerInvoiceId: string;
      amountCents: number;
      currency: string;
      paidAt: Date;
      hostedInvoiceUrl: string | null;
      /** The period the invoice paid for ends here. */
      periodEnd: Date | null;
    };

/**
 * Unlike PaymentEvents, a failing handler fails the emit: these are emitted by a webhook job, which
 * then retries with backoff (the handlers are idempotent).
 */
@Injectable()
export class SubscriptionEvents extends InProcessEvents<SubscriptionEvent> {
  protected override readonly rethrowByDefault = true;
}
