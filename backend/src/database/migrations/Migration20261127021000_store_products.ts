import { Migration } from '@mikro-orm/migrations';

/**
 * Products at the store (issue 21): a lead magnet's download address, and the demo provider's
 * subscription checkouts (the plan a payment page starts, and the demo subscription it started).
 */
export class Migration20261127021000_store_products extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "product" add column "download_url" text null;`);
    this.addSql(`alter table "demo_checkout_session" add column "subscription" jsonb null, add column "subscription_id" text null;`);
    this.addSql(`alter table "demo_subscription" add column "current_period_end" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "demo_subscription" drop column if exists "current_period_end";`);
    this.addSql(`alter table "demo_checkout_session" drop column if exists "subscription", drop column if exists "subscription_id";`);
    this.addSql(`alter table "product" drop column if exists "download_url";`);
  }
}
