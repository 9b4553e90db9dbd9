import { Migration } from '@mikro-orm/migrations';

/** The refunds ledger (issue 9): amount, reason, who, when and the provider's refund id of every refund. */
export class Migration20261122180000_refunds extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "order_refund" (
      "id" uuid not null primary key,
      "order_id" uuid not null references "customer_order" ("id") on delete cascade,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "amount_cents" integer not null check ("amount_cents" > 0),
      "reason" text not null default '',
      "actor_user_id" uuid null references "app_user" ("id") on delete set null,
      "provider_refund_id" text null,
      "status" text not null default 'succeeded',
      "idempotency_key" text null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "order_refund_order_index" on "order_refund" ("organization_id", "order_id", "created_at");`);
    this.addSql(`alter table "order_refund" add constraint "order_refund_idempotency_key_unique" unique ("order_id", "idempotency_key");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "order_refund";`);
  }
}
