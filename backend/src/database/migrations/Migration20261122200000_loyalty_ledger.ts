import { Migration } from '@mikro-orm/migrations';

/**
 * The loyalty points ledger (issue 10): a balance is a list of entries, never a bare number. Each
 * entry keeps the change, the balance after it, why, the order, who and when. An order earns once
 * and is reversed once (partial unique index), however often its payment or refund is announced.
 */
export class Migration20261122200000_loyalty_ledger extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "loyalty_entry" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "student_id" uuid not null references "student" ("id") on delete cascade,
      "points" integer not null,
      "balance" integer not null check ("balance" >= 0),
      "reason" text not null check ("reason" in ('earned', 'adjusted', 'redeemed', 'refund_reversal')),
      "order_id" uuid null,
      "actor_user_id" uuid null references "app_user" ("id") on delete set null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "loyalty_entry_student_index" on "loyalty_entry" ("organization_id", "student_id", "created_at" desc, "id" desc);`);
    this.addSql(`create unique index "loyalty_entry_order_once" on "loyalty_entry" ("order_id", "reason") where "order_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "loyalty_entry";`);
  }
}
