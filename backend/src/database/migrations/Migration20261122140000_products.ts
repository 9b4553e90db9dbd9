import { Migration } from '@mikro-orm/migrations';

/**
 * Products (spec 000 §3) with their images and their price history: a price change inserts a new
 * `product_price` row and makes it current; past rows stay for the orders that reference them.
 */
export class Migration20261122140000_products extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "product" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "name" text not null,
      "description" text not null default '',
      "status" text not null default 'published' check ("status" in ('published', 'draft')),
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now());`);
    this.addSql(`create index "product_organization_id_index" on "product" ("organization_id", "created_at", "id");`);
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create index "product_name_trgm" on "product" using gin ((lower("name")) gin_trgm_ops);`);

    this.addSql(`create table "product_image" (
      "id" uuid not null primary key,
      "product_id" uuid not null references "product" ("id") on delete cascade,
      "media_id" uuid not null references "media" ("id") on delete restrict,
      "position" smallint not null);`);
    this.addSql(`create index "product_image_product_id_index" on "product_image" ("product_id", "position");`);

    this.addSql(`create table "product_price" (
      "id" uuid not null primary key,
      "product_id" uuid not null references "product" ("id") on delete cascade,
      "amount_cents" integer not null check ("amount_cents" >= 0),
      "category" text not null check ("category" in ('oneTime', 'subscription', 'leadMagnet')),
      "renewal_interval_unit" text null check ("renewal_interval_unit" in ('days', 'weeks', 'months', 'years')),
      "renewal_interval_quantity" integer null check ("renewal_interval_quantity" >= 1),
      "earned_loyalty_points" integer null check ("earned_loyalty_points" > 1),
      "current" boolean not null default true,
      "created_at" timestamptz not null default now(),
      constraint "product_price_subscription_interval" check (
        ("category" = 'subscription') = ("renewal_interval_unit" is not null and "renewal_interval_quantity" is not null)),
      constraint "product_price_paid_amount" check ("category" = 'leadMagnet' or "amount_cents" > 0));`);
    this.addSql(`create index "product_price_product_id_index" on "product_price" ("product_id", "created_at");`);
    this.addSql(`create unique index "product_price_one_current" on "product_price" ("product_id") where "current";`);
  }

  override async down(): Promise<void> {
    for (const table of ['product_price', 'product_image', 'product']) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
