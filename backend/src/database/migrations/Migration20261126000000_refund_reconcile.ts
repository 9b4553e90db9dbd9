import { Migration } from '@mikro-orm/migrations';

/**
 * Refunds in two steps, reconciled with the provider, and idempotency keys bound to their request
 * (issue 19).
 *
 * - `order_refund.status` `requested`: the refund is recorded and its amount reserved on the order
 *   (counted in `refunded_cents`) before the provider is asked, outside any transaction; the answer
 *   is recorded in a second transaction, or by the reconciler job when that never happened (a crash).
 *   The partial index finds the rows still requested.
 * - `order_refund.enrollment_id`: Remove student's refund names the enrollment to remove once the
 *   provider made the refund (the scheduling module removes it, in the transaction that records it).
 * - `order_refund.failure_message`: what the refund's call answered when the provider refused it.
 * - `idempotency_key`: the first answer of a request sent with an Idempotency-Key header, per
 *   organization and key, with the route and a hash of its parameters; kept 24 hours.
 * - `demo_refund.metadata` and `demo_refund_refusal`: the demo provider keeps what a refund names
 *   (studio, order, ledger row), as Stripe's metadata, and replays a refused key's refusal, as Stripe.
 */
export class Migration20261126000000_refund_reconcile extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "order_refund" add column "enrollment_id" uuid null;`);
    this.addSql(`alter table "order_refund" add column "failure_message" text null;`);
    this.addSql(
      `alter table "order_refund" add constraint "order_refund_status_check" check ("status" in ('requested', 'pending', 'requires_action', 'succeeded', 'failed', 'canceled'));`,
    );
    this.addSql(
      `create index "order_refund_requested_index" on "order_refund" ("created_at") where "status" = 'requested';`,
    );
    this.addSql(`create table "idempotency_key" (
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "key" text not null,
      "method_route" text not null,
      "request_hash" text not null,
      "state" text not null default 'running' check ("state" in ('running', 'done')),
      "response_status" integer null,
      "response_body" jsonb null,
      "locked_at" timestamptz not null default now(),
      "created_at" timestamptz not null default now(),
      primary key ("organization_id", "key"));`);
    this.addSql(`create index "idempotency_key_created_index" on "idempotency_key" ("created_at");`);
    this.addSql(`alter table "demo_refund" add column "metadata" jsonb not null default '{}';`);
    this.addSql(`create table "demo_refund_refusal" (
      "idempotency_key" text primary key,
      "payment_id" text not null,
      "amount_cents" integer not null,
      "code" text not null,
      "message" text not null,
      "created_at" timestamptz not null default now());`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "demo_refund_refusal";`);
    this.addSql(`alter table "demo_refund" drop column "metadata";`);
    this.addSql(`drop table if exists "idempotency_key";`);
    this.addSql(`drop index if exists "order_refund_requested_index";`);
    this.addSql(`alter table "order_refund" drop constraint "order_refund_status_check";`);
    this.addSql(`alter table "order_refund" drop column "failure_message";`);
    this.addSql(`alter table "order_refund" drop column "enrollment_id";`);
  }
}
