import { Migration } from '@mikro-orm/migrations';

/**
 * Discount codes (spec 000 §3): one code per organization whatever its case, a value in cents or
 * a whole percent, an optional course and an optional window of instants. The list pages newest
 * first and searches code and label with a trigram index.
 */
export class Migration20261122130000_discounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create table "discount_code" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "label" text not null,
      "code" text not null,
      "type" text not null check ("type" in ('dollar', 'percentage')),
      "value" integer not null check ("value" > 0 and ("type" = 'dollar' or "value" <= 100)),
      "activity_id" uuid null references "activity" ("id") on delete cascade,
      "apply_logic" text not null check ("apply_logic" in ('once', 'each')),
      "start_date" timestamptz null,
      "expiration_date" timestamptz null,
      "times_used" integer not null default 0 check ("times_used" >= 0),
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      check ("start_date" is null or "expiration_date" is null or "expiration_date" > "start_date"));`);
    this.addSql(`create unique index "discount_code_organization_code_unique" on "discount_code" ("organization_id", lower("code"));`);
    this.addSql(`create index "discount_code_organization_created_index" on "discount_code" ("organization_id", "created_at", "id");`);
    this.addSql(`create index "discount_code_search_trgm" on "discount_code" using gin ((lower("code" || ' ' || "label")) gin_trgm_ops);`);
    this.addSql(`create index "discount_code_activity_index" on "discount_code" ("activity_id") where "activity_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "discount_code";`);
  }
}
