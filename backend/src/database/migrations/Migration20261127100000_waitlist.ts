import { Migration } from '@mikro-orm/migrations';

/**
 * The waitlist of a sold-out session (issue 23):
 * - `organization.waitlist_claim_hours`: how long an offer holds its seats (1 to 168, 12 by default);
 * - `waitlist_entry` (the waitlist module's table): who waits for which session, with how many seats,
 *   in the order `position` says; one entry per email and session while it waits or is offered;
 *   an offer names its seat hold and keeps only the SHA-256 of its claim link's token;
 * - `seat_hold` (scheduling's): an offer's hold names its waitlist entry and has no order or student
 *   until it is claimed at the checkout (which then names both, so the checkout converts that hold).
 */
export class Migration20261127100000_waitlist extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "organization" add column "waitlist_claim_hours" integer not null default 12 check ("waitlist_claim_hours" between 1 and 168);`,
    );
    this.addSql(`create table "waitlist_entry" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "event_id" uuid not null references "event" ("id") on delete cascade,
      "name" text not null,
      "email" text not null,
      "party_size" integer not null check ("party_size" between 1 and 1000),
      "position" bigint not null,
      "status" text not null default 'waiting' check ("status" in ('waiting', 'offered', 'claimed', 'expired', 'removed')),
      "hold_id" uuid null,
      "offered_at" timestamptz null,
      "offered_until" timestamptz null,
      "claim_token_hash" text null,
      "order_id" uuid null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now());`);
    this.addSql(
      `create unique index "waitlist_entry_active_email_unique" on "waitlist_entry" ("event_id", "email") where "status" in ('waiting', 'offered');`,
    );
    this.addSql(
      `create index "waitlist_entry_event_position_index" on "waitlist_entry" ("event_id", "position");`,
    );
    this.addSql(
      `create index "waitlist_entry_offered_index" on "waitlist_entry" ("offered_until") where "status" = 'offered';`,
    );

    this.addSql(
      `alter table "seat_hold" alter column "order_id" drop not null, alter column "student_id" drop not null;`,
    );
    this.addSql(`alter table "seat_hold" add column "waitlist_entry_id" uuid null;`);
    this.addSql(
      `alter table "seat_hold" add constraint "seat_hold_owner_check" check ("order_id" is not null and "student_id" is not null or "waitlist_entry_id" is not null);`,
    );
    this.addSql(
      `create index "seat_hold_waitlist_entry_index" on "seat_hold" ("waitlist_entry_id") where "waitlist_entry_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "seat_hold" where "order_id" is null or "student_id" is null;`);
    this.addSql(`alter table "seat_hold" drop constraint if exists "seat_hold_owner_check";`);
    this.addSql(`alter table "seat_hold" drop column if exists "waitlist_entry_id";`);
    this.addSql(
      `alter table "seat_hold" alter column "order_id" set not null, alter column "student_id" set not null;`,
    );
    this.addSql(`drop table if exists "waitlist_entry";`);
    this.addSql(`alter table "organization" drop column if exists "waitlist_claim_hours";`);
  }
}
