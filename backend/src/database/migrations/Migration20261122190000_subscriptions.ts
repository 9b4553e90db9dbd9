import { Migration } from '@mikro-orm/migrations';

/**
 * Subscriptions (issue 9): the orders module's subscriptions and their paid invoices (billing
 * history); the payments module's Stripe webhook events (deduplicated by event id) and the demo
 * provider's subscriptions ledger.
 */
export class Migration20261122190000_subscriptions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "subscription" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "student_id" uuid not null references "student" ("id") on delete restrict,
      "order_id" uuid null references "customer_order" ("id") on delete set null,
      "product_id" uuid null,
      "product_price_id" uuid null,
      "plan_name" text not null,
      "amount_cents" integer not null check ("amount_cents" >= 0),
      "currency" text not null default 'usd',
      "interval_unit" text not null check ("interval_unit" in ('days', 'weeks', 'months', 'years')),
      "interval_count" integer not null check ("interval_count" between 1 and 365),
      "provider" text not null check ("provider" in ('demo', 'stripe')),
      "provider_subscription_id" text not null,
      "status" text not null check ("status" in ('active', 'expired', 'cancelled')),
      "current_period_end" timestamptz null,
      "cancelled_at" timestamptz null,
      "provider_event_at" bigint not null default 0,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "subscription_provider_id_unique" unique ("provider", "provider_subscription_id"));`);
    this.addSql(`create index "subscription_organization_created_index" on "subscription" ("organization_id", "created_at");`);
    this.addSql(`create index "subscription_order_index" on "subscription" ("order_id");`);

    this.addSql(`create table "subscription_invoice" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "provider" text not null check ("provider" in ('demo', 'stripe')),
      "provider_subscription_id" text not null,
      "provider_invoice_id" text not null,
      "amount_cents" integer not null check ("amount_cents" >= 0),
      "currency" text not null default 'usd',
      "paid_at" timestamptz not null,
      "hosted_invoice_url" text null,
      "created_at" timestamptz not null default now(),
      constraint "subscription_invoice_provider_id_unique" unique ("provider", "provider_invoice_id"));`);
    this.addSql(`create index "subscription_invoice_subscription_index" on "subscription_invoice" ("provider", "provider_subscription_id", "paid_at");`);

    this.addSql(`create table "stripe_webhook_event" (
      "id" text not null primary key,
      "type" text not null,
      "payload" jsonb not null,
      "stripe_created_at" timestamptz not null,
      "received_at" timestamptz not null default now(),
      "processed_at" timestamptz null);`);

    this.addSql(`create table "demo_subscription" (
      "id" text not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "status" text not null check ("status" in ('active', 'canceled')),
      "amount_cents" integer not null check ("amount_cents" >= 0),
      "created_at" timestamptz not null default now(),
      "canceled_at" timestamptz null);`);
  }

  override async down(): Promise<void> {
    for (const table of ['demo_subscription', 'stripe_webhook_event', 'subscription_invoice', 'subscription']) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
