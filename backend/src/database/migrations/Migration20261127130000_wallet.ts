import { Migration } from '@mikro-orm/migrations';

/**
 * The wallet (issue 24, "One ledger"), owned by the wallet module:
 * - `wallet_holding`: one membership, class pack, gift card or store credit of a student. Its
 *   balance is not stored: it is the last ledger row's balance_after (the sum of its rows).
 * - `wallet_entry`: every grant, use, return, expiry and adjustment, written under the student's
 *   lock (pg_advisory_xact_lock) with the holding's balance after it, which can never go below 0.
 *   `key` makes a repeatable change happen once (a booking's one use, a use's one return, a
 *   holding's one expiry, a grant's caller key); `seq` orders one holding's rows.
 * order_id, product_id, enrollment_id and appointment_id name other modules' rows: no foreign key.
 */
export class Migration20261127130000_wallet extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "wallet_holding" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "student_id" uuid not null references "student" ("id") on delete cascade,
      "kind" text not null check ("kind" in ('membership', 'pack', 'gift_card', 'store_credit')),
      "label" text not null check (length("label") between 1 and 200),
      "unit" text not null check ("unit" in ('bookings', 'credits', 'cents')),
      "product_id" uuid null,
      "order_id" uuid null,
      "expires_at" timestamptz null,
      "code_hash" text null,
      "status" text not null default 'active' check ("status" in ('active', 'expired')),
      "created_at" timestamptz not null default now(),
      constraint "wallet_holding_kind_unit" check (
        ("kind" = 'membership' and "unit" = 'bookings') or ("kind" = 'pack' and "unit" = 'credits')
        or ("kind" in ('gift_card', 'store_credit') and "unit" = 'cents')));`);
    this.addSql(`create index "wallet_holding_student_index" on "wallet_holding" ("organization_id", "student_id", "created_at" desc);`);
    this.addSql(`create unique index "wallet_holding_code_once" on "wallet_holding" ("organization_id", "code_hash") where "code_hash" is not null;`);
    this.addSql(`create index "wallet_holding_expiring" on "wallet_holding" ("expires_at") where "status" = 'active' and "expires_at" is not null;`);
    this.addSql(`create table "wallet_entry" (
      "id" uuid not null primary key,
      "seq" bigint generated always as identity,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "student_id" uuid not null references "student" ("id") on delete cascade,
      "holding_id" uuid not null references "wallet_holding" ("id") on delete cascade,
      "amount" integer not null check ("amount" <> 0),
      "balance_after" integer not null check ("balance_after" >= 0),
      "reason" text not null check ("reason" in ('grant', 'use', 'return', 'expire', 'adjust')),
      "order_id" uuid null,
      "enrollment_id" uuid null,
      "appointment_id" uuid null,
      "returns_entry_id" uuid null references "wallet_entry" ("id") on delete cascade,
      "actor_user_id" uuid null references "app_user" ("id") on delete set null,
      "note" text null,
      "key" text null,
      "created_at" timestamptz not null default now(),
      constraint "wallet_entry_sign" check (
        ("reason" in ('grant', 'return') and "amount" > 0) or ("reason" in ('use', 'expire') and "amount" < 0)
        or "reason" = 'adjust'),
      constraint "wallet_entry_use_names_what" check (
        "reason" <> 'use' or coalesce("enrollment_id", "appointment_id", "order_id") is not null),
      constraint "wallet_entry_return_names_use" check ("reason" <> 'return' or "returns_entry_id" is not null),
      constraint "wallet_entry_adjust_has_reason" check ("reason" <> 'adjust' or length(btrim(coalesce("note", ''))) > 0));`);
    this.addSql(`create index "wallet_entry_holding_index" on "wallet_entry" ("holding_id", "seq" desc);`);
    this.addSql(`create index "wallet_entry_student_index" on "wallet_entry" ("organization_id", "student_id", "seq" desc);`);
    this.addSql(`create unique index "wallet_entry_key_once" on "wallet_entry" ("organization_id", "key") where "key" is not null;`);
    this.addSql(`create unique index "wallet_entry_return_once" on "wallet_entry" ("returns_entry_id") where "returns_entry_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "wallet_entry";`);
    this.addSql(`drop table if exists "wallet_holding";`);
  }
}
