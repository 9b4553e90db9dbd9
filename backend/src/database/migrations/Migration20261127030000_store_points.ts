import { Migration } from '@mikro-orm/migrations';

/**
 * Loyalty points at the store's checkout and store discount uses (issue 21, step 6):
 * - `loyalty_entry.reason` gains `redemption_returned`: points redeemed on an order given back when
 *   the order fails or is refunded in full (once per order, by the once-per-order index).
 * - `loyalty_code`: the one-time codes mailed to a student to prove the email (only a salted hash of
 *   the code, its wrong tries counted), and the proof a verified code gives (only its hash).
 * - `discount_use`: one row per paid order that used a code, so a code's times_used counts each
 *   order once however often its payment is announced.
 */
export class Migration20261127030000_store_points extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "loyalty_entry" drop constraint "loyalty_entry_reason_check";`);
    this.addSql(
      `alter table "loyalty_entry" add constraint "loyalty_entry_reason_check" check ("reason" in ('earned', 'adjusted', 'redeemed', 'refund_reversal', 'refund_failed', 'redemption_returned'));`,
    );
    this.addSql(`create table "loyalty_code" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "student_id" uuid not null references "student" ("id") on delete cascade,
      "code_hash" text not null,
      "attempts" integer not null default 0,
      "expires_at" timestamptz not null,
      "proof_hash" text null,
      "proof_expires_at" timestamptz null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "loyalty_code_student_index" on "loyalty_code" ("organization_id", "student_id", "created_at" desc);`);
    this.addSql(`create unique index "loyalty_code_proof_hash_unique" on "loyalty_code" ("proof_hash") where "proof_hash" is not null;`);
    this.addSql(`create table "discount_use" (
      "order_id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "discount_code_id" uuid not null references "discount_code" ("id") on delete cascade,
      "created_at" timestamptz not null default now());`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "discount_use";`);
    this.addSql(`drop table if exists "loyalty_code";`);
    // Fails while a redemption_returned entry exists: ledger entries are not dropped here.
    this.addSql(`alter table "loyalty_entry" drop constraint "loyalty_entry_reason_check";`);
    this.addSql(
      `alter table "loyalty_entry" add constraint "loyalty_entry_reason_check" check ("reason" in ('earned', 'adjusted', 'redeemed', 'refund_reversal', 'refund_failed'));`,
    );
  }
}
