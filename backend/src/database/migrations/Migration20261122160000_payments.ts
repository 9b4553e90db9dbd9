import { Migration } from '@mikro-orm/migrations';

/**
 * The payments module's own tables: the built-in demo provider's ledger (checkout sessions,
 * payments, refunds, saved cards) and the Stripe customer of each studio.
 */
export class Migration20261122160000_payments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "demo_checkout_session" (
      "id" text not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "order_id" uuid null,
      "mode" text not null check ("mode" in ('payment', 'setup')),
      "status" text not null default 'open' check ("status" in ('open', 'paid', 'expired', 'cancelled')),
      "amount_cents" integer not null check ("amount_cents" >= 0),
      "currency" text not null default 'usd',
      "customer_email" text null,
      "lines" jsonb not null default '[]',
      "success_url" text not null,
      "cancel_url" text not null,
      "expires_at" timestamptz not null,
      "payment_id" text null,
      "created_at" timestamptz not null default now(),
      "completed_at" timestamptz null);`);
    this.addSql(`create index "demo_checkout_session_organization_id_index" on "demo_checkout_session" ("organization_id");`);

    this.addSql(`create table "demo_payment" (
      "id" text not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "session_id" text not null references "demo_checkout_session" ("id") on delete cascade,
      "amount_cents" integer not null check ("amount_cents" >= 0),
      "refunded_cents" integer not null default 0,
      "currency" text not null,
      "customer_email" text null,
      "created_at" timestamptz not null default now(),
      constraint "demo_payment_refund_within_amount" check ("refunded_cents" between 0 and "amount_cents"));`);

    this.addSql(`create table "demo_refund" (
      "id" text not null primary key,
      "payment_id" text not null references "demo_payment" ("id") on delete cascade,
      "amount_cents" integer not null check ("amount_cents" > 0),
      "reason" text null,
      "idempotency_key" text not null unique,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "demo_refund_payment_id_index" on "demo_refund" ("payment_id");`);

    this.addSql(`create table "demo_payment_method" (
      "id" text not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "brand" text not null,
      "last4" text not null,
      "exp_month" integer not null,
      "exp_year" integer not null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "demo_payment_method_organization_id_index" on "demo_payment_method" ("organization_id");`);

    this.addSql(`create table "stripe_customer" (
      "organization_id" uuid not null primary key references "organization" ("id") on delete cascade,
      "customer_id" text not null,
      "created_at" timestamptz not null default now());`);
  }

  override async down(): Promise<void> {
    for (const table of ['stripe_customer', 'demo_payment_method', 'demo_refund', 'demo_payment', 'demo_checkout_session']) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
