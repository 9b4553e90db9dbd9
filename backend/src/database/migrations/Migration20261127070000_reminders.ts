import { Migration } from '@mikro-orm/migrations';

/**
 * Reminders before a class or appointment (issue 23):
 * - `organization.reminder_offsets_mins`: minutes before a booking's start a reminder mail goes
 *   (at most 3; empty = off), on by default at 24 hours;
 * - `reminder_log`: each reminder job's outcome on the booking (an enrollment or an appointment):
 *   sent (to whom), skipped (why) or failed (the error). Unique on the dedupe key
 *   `reminder:<booking>:<offset>:<start>`: the row is claimed in the transaction that queues the
 *   mail, so a second worker or a retry never sends the same reminder twice.
 */
export class Migration20261127070000_reminders extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "organization" add column "reminder_offsets_mins" jsonb not null default '[1440]';`);
    this.addSql(`create table "reminder_log" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "booking_kind" text not null check ("booking_kind" in ('enrollment', 'appointment')),
      "booking_id" uuid not null,
      "student_id" uuid not null references "student" ("id") on delete cascade,
      "offset_mins" integer not null check ("offset_mins" > 0),
      "starts_at" timestamptz not null,
      "sent_at" timestamptz not null default now(),
      "to_address" text null,
      "outcome" text not null check ("outcome" in ('sent', 'skipped', 'failed')),
      "detail" text null,
      "dedupe_key" text not null,
      constraint "reminder_log_dedupe_key_unique" unique ("dedupe_key")
    );`);
    this.addSql(`create index "reminder_log_student_idx" on "reminder_log" ("organization_id", "student_id", "sent_at" desc);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "reminder_log";`);
    this.addSql(`alter table "organization" drop column if exists "reminder_offsets_mins";`);
  }
}
