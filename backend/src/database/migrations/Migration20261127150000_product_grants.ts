import { Migration } from '@mikro-orm/migrations';

/**
 * What a product grants (issue 24), kept on its immutable price row so an order keeps what it
 * bought (a change of grant inserts a new price, like a change of amount):
 * - `grant_kind`: none, membership (a subscription's bookings a period), pack (credits) or giftCard;
 * - a membership's `membership_bookings` a period or `membership_unlimited`;
 * - a pack's `pack_credits` and its validity after purchase (`pack_expires_after_*`, both null:
 *   it never expires);
 * - what a membership or pack covers (`covers_activity_ids`, `covers_category_ids`; null: all).
 * And a gift card's recipient on its order line (the checkout writes it, the grant reads it).
 */
export class Migration20261127150000_product_grants extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "product_price"
      add column "grant_kind" text not null default 'none' check ("grant_kind" in ('none', 'membership', 'pack', 'giftCard')),
      add column "membership_bookings" integer null check ("membership_bookings" between 1 and 1000),
      add column "membership_unlimited" boolean not null default false,
      add column "pack_credits" integer null check ("pack_credits" between 1 and 1000),
      add column "pack_expires_after_quantity" integer null check ("pack_expires_after_quantity" between 1 and 365),
      add column "pack_expires_after_unit" text null check ("pack_expires_after_unit" in ('days', 'weeks', 'months', 'years')),
      add column "covers_activity_ids" uuid[] null,
      add column "covers_category_ids" integer[] null,
      add constraint "product_price_grant_terms" check (
        ("grant_kind" <> 'membership' or "membership_unlimited" or "membership_bookings" is not null)
        and ("grant_kind" <> 'pack' or "pack_credits" is not null)
        and (("pack_expires_after_quantity" is null) = ("pack_expires_after_unit" is null)));`);
    this.addSql(`alter table "order_line"
      add column "recipient_name" text null check (length("recipient_name") <= 200),
      add column "recipient_email" text null check (length("recipient_email") <= 254),
      add column "gift_message" text null check (length("gift_message") <= 500);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "order_line" drop column "recipient_name", drop column "recipient_email", drop column "gift_message";`);
    this.addSql(`alter table "product_price" drop constraint "product_price_grant_terms",
      drop column "grant_kind", drop column "membership_bookings", drop column "membership_unlimited", drop column "pack_credits",
      drop column "pack_expires_after_quantity", drop column "pack_expires_after_unit", drop column "covers_activity_ids", drop column "covers_category_ids";`);
  }
}
