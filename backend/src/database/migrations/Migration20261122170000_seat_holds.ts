import { Migration } from '@mikro-orm/migrations';

/**
 * Payment links (issue 9): the seat a link holds until it is paid, cancelled or expires (owned by
 * the scheduling module), and the link's checkout session and expiry on the order.
 */
export class Migration20261122170000_seat_holds extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "seat_hold" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "event_id" uuid not null references "event" ("id") on delete cascade,
      "student_id" uuid not null references "student" ("id") on delete cascade,
      "order_id" uuid not null,
      "seats" integer not null default 1 check ("seats" > 0),
      "expires_at" timestamptz not null,
      "released_at" timestamptz null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create unique index "seat_hold_order_unique" on "seat_hold" ("order_id");`);
    // The seats count reads the live holds of a session.
    this.addSql(`create index "seat_hold_live_index" on "seat_hold" ("event_id", "expires_at") where "released_at" is null;`);

    this.addSql(`alter table "customer_order" add column "checkout_session_id" text null, add column "link_expires_at" timestamptz null;`);
    this.addSql(`create unique index "customer_order_checkout_session_unique" on "customer_order" ("checkout_session_id") where "checkout_session_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "customer_order_checkout_session_unique";`);
    this.addSql(`alter table "customer_order" drop column if exists "checkout_session_id", drop column if exists "link_expires_at";`);
    this.addSql(`drop table if exists "seat_hold";`);
  }
}
