import { Migration } from '@mikro-orm/migrations';

/**
 * What a membership or class pack covers (issue 24), copied onto the holding when it is granted so
 * a later edit of the product does not change what a student bought:
 * - `unlimited`: an unlimited membership (granted UNLIMITED_BOOKINGS a period, read "Unlimited");
 * - `covers_activity_ids` / `covers_category_ids`: the courses or categories it covers (null: all);
 * - `subscription_id`: the subscription a membership follows (its period, renewals and lapse), one
 *   holding per subscription.
 */
export class Migration20261127140000_wallet_coverage extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "wallet_holding"
      add column "unlimited" boolean not null default false,
      add column "covers_activity_ids" uuid[] null,
      add column "covers_category_ids" integer[] null,
      add column "subscription_id" uuid null;`);
    this.addSql(`create unique index "wallet_holding_subscription_once" on "wallet_holding" ("subscription_id") where "subscription_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "wallet_holding_subscription_once";`);
    this.addSql(`alter table "wallet_holding" drop column "unlimited", drop column "covers_activity_ids", drop column "covers_category_ids", drop column "subscription_id";`);
  }
}
