import { Migration } from '@mikro-orm/migrations';

/**
 * The studio cancels a session with students (issue 23):
 * - `session_cancellation`: one row per cancelled session: the refund chosen (full or none), the
 *   reason told to the students, who cancelled and when;
 * - `session_cancellation_seat`: one row per student of the session when it was cancelled, written
 *   in the cancel's transaction; its handler (one outbox event per seat) records the outcome once:
 *   refunded (and how much), not refunded (why), refund failed, or no refund. `processed_at` null
 *   means still to do: what the drawer's progress counts.
 */
export class Migration20261127110000_session_cancel extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "session_cancellation" (
      "event_id" uuid not null primary key references "event" ("id") on delete cascade,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "refund" text not null check ("refund" in ('full', 'none')),
      "reason" text not null default '',
      "cancelled_by" uuid null references "app_user" ("id") on delete set null,
      "cancelled_at" timestamptz not null default now()
    );`);
    this.addSql(`create table "session_cancellation_seat" (
      "enrollment_id" uuid not null primary key references "enrollment" ("id") on delete cascade,
      "event_id" uuid not null references "session_cancellation" ("event_id") on delete cascade,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "student_id" uuid not null references "student" ("id") on delete cascade,
      "order_id" uuid null,
      "outcome" text not null default 'pending' check ("outcome" in ('pending', 'refunded', 'not_refunded', 'refund_failed', 'no_refund')),
      "refund_cents" integer not null default 0 check ("refund_cents" >= 0),
      "note" text null,
      "processed_at" timestamptz null
    );`);
    this.addSql(`create index "session_cancellation_seat_event_idx" on "session_cancellation_seat" ("event_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "session_cancellation_seat";`);
    this.addSql(`drop table if exists "session_cancellation";`);
  }
}
