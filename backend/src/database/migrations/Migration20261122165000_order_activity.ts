import { Migration } from '@mikro-orm/migrations';

/** The money audit (issue 9): refunds, cancellations and payment-link sends, with who did them. */
export class Migration20261122165000_order_activity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "order_activity" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "order_id" uuid null references "customer_order" ("id") on delete cascade,
      "subscription_id" uuid null,
      "action" text not null,
      "actor_user_id" uuid null references "app_user" ("id") on delete set null,
      "amount_cents" integer null,
      "detail" text not null default '',
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "order_activity_order_index" on "order_activity" ("organization_id", "order_id", "created_at");`);
    this.addSql(`create index "order_activity_subscription_index" on "order_activity" ("organization_id", "subscription_id", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "order_activity";`);
  }
}
