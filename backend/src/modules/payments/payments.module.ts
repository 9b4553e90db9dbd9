import { MikroORM } from '@mikro-orm/core';
import { Logger, Module } from '@nestjs/common';
import { guardPort } from '../../common/outside-calls';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { DemoPaymentPagesController } from './demo/demo-pages.controller';
import { DemoPaymentsAdapter } from './demo/demo-payments.adapter';
import { PaymentEvents } from './payment-events';
import { PaymentsPort } from './payments.port';
import { SubscriptionEvents } from './subscription-events';
import { StripeWebhooksController } from './stripe/stripe-webhooks.controller';
import { StripeWebhooksService } from './stripe/stripe-webhooks.service';
import { stripeClient, StripePaymentsAdapter } from './stripe/stripe-payments.adapter';

/** Stripe when STRIPE_SECRET_KEY is set; otherwise the built-in demo provider (no keys, no network). */
export function paymentsAdapter(config: AppConfig, orm: MikroORM, events: PaymentEvents): PaymentsPort {
  if (config.STRIPE_SECRET_KEY) {
    return new StripePaymentsAdapter(stripeClient(config.STRIPE_SECRET_KEY, config.STRIPE_API_BASE), orm);
  }
  new Logger('Payments').log('No STRIPE_SECRET_KEY: payments go through the built-in demo provider (no card is charged)');
  const base = (config.PUBLIC_APP_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  return new DemoPaymentsAdapter(orm, events, base, !config.DATABASE_URL);
}

/**
 * The payment provider behind one port (PaymentsPort) and what it announces (PaymentEvents). The
 * orders module builds payment links, refunds and receipts on these; it never sees Stripe or the demo
 * ledger's tables.
 */
@Module({
  controllers: [DemoPaymentPagesController, StripeWebhooksController],
  providers: [
    PaymentEvents,
    SubscriptionEvents,
    StripeWebhooksService,
    {
      provide: PaymentsPort,
      inject: [APP_CONFIG, MikroORM, PaymentEvents],
      // Test mode: each call checks that no transaction is open (common/outside-calls.ts).
      useFactory: (config: AppConfig, orm: MikroORM, events: PaymentEvents) => guardPort(paymentsAdapter(config, orm, events), 'payments', config.NODE_ENV === 'test'),
    },
  ],
  exports: [PaymentsPort, PaymentEvents, SubscriptionEvents],
})
export class PaymentsModule {}
