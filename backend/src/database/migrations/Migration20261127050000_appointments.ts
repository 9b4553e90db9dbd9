import { Migration } from '@mikro-orm/migrations';

/**
 * Appointments (issue 22), their storage and the booking guarantee: two appointments of one
 * instructor whose blocked periods (the appointment widened by its course's buffers) overlap cannot
 * both exist while neither is cancelled. The database refuses the second (an exclusion constraint
 * over time ranges, btree_gist for the instructor's equality), so no race between two bookings can
 * slip past; the loser gets SQLSTATE 23P01. The embedded database (PGlite) loads btree_gist too.
 *
 * `blocked` is stored when the appointment is made: [starts_at − buffer_before, ends_at +
 * buffer_after), half-open, so back-to-back periods touch without overlapping; a later change of
 * the course's buffers does not move existing appointments.
 *
 * Availability: the instructor's weekly hours and date overrides, and a course's own hours when it
 * has them, as jsonb `{weekly: {...}, overrides: [...]}` (validated by the contracts' availability
 * schema); null means none set. The course's booking window (days ahead a student may book)
 * stands beside its four scheduling settings.
 */
export class Migration20261127050000_appointments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists btree_gist;`);
    this.addSql(`alter table "activity" add column "booking_window_days" integer not null default 60
      constraint "activity_booking_window_days_check" check ("booking_window_days" between 1 and 365);`);
    this.addSql(`alter table "activity" add column "availability" jsonb null;`);
    this.addSql(`alter table "instructor" add column "availability" jsonb null;`);
    this.addSql(`create table "appointment" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "activity_id" uuid not null references "activity" ("id") on delete restrict,
      "instructor_id" uuid not null references "instructor" ("id") on delete restrict,
      "location_id" uuid not null references "location" ("id") on delete restrict,
      "student_id" uuid not null references "student" ("id") on delete restrict,
      "order_id" uuid null references "customer_order" ("id") on delete set null,
      "guest_count" integer not null default 0 check ("guest_count" >= 0),
      "status" text not null default 'held' check ("status" in ('held', 'booked', 'cancelled')),
      "starts_at" timestamptz not null,
      "ends_at" timestamptz not null,
      "blocked" tstzrange not null,
      "hold_expires_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "cancelled_at" timestamptz null,
      constraint "appointment_period_check" check ("ends_at" > "starts_at"),
      constraint "appointment_blocked_check" check (
        lower_inc("blocked") and not upper_inc("blocked")
        and lower("blocked") <= "starts_at" and upper("blocked") >= "ends_at"),
      constraint "appointment_held_expiry_check" check ("status" <> 'held' or "hold_expires_at" is not null),
      constraint "appointment_cancelled_at_check" check (("status" = 'cancelled') = ("cancelled_at" is not null)),
      constraint "appointment_no_overlap" exclude using gist ("instructor_id" with =, "blocked" with &&)
        where ("status" <> 'cancelled'));`);
    // A course's upcoming appointments; a student's; the hold sweeper's; an order's.
    this.addSql(`create index "appointment_activity_starts_index" on "appointment" ("organization_id", "activity_id", "starts_at");`);
    this.addSql(`create index "appointment_student_index" on "appointment" ("student_id");`);
    this.addSql(`create index "appointment_held_expiry_index" on "appointment" ("hold_expires_at") where "status" = 'held';`);
    this.addSql(`create index "appointment_order_index" on "appointment" ("order_id") where "order_id" is not null;`);
    this.addSql(`create index "appointment_location_starts_index" on "appointment" ("location_id", "starts_at");`);
    // The instructor's sessions are busy time too: read by instructor and period.
    this.addSql(`create index "event_instructor_period_index" on "event" ("instructor_id", "starts_at", "ends_at") where "status" = 'active';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "event_instructor_period_index";`);
    this.addSql(`drop table if exists "appointment";`);
    this.addSql(`alter table "instructor" drop column if exists "availability";`);
    this.addSql(`alter table "activity" drop column if exists "availability";`);
    this.addSql(`alter table "activity" drop column if exists "booking_window_days";`);
  }
}
