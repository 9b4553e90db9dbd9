import { Migration } from '@mikro-orm/migrations';

/**
 * The admin's appointments (issue 22):
 * - `appointment.meeting_url`: the Zoom join link of an appointment at an online location (written
 *   by the sync's meeting job through AppointmentsService.attachMeeting);
 * - `appointment.sequence`: the calendar file's SEQUENCE, raised by each move, so the student's
 *   calendar replaces the event (same UID) instead of adding one;
 * - `order_line.kind` 'appointment': the line of an order that pays for an appointment (its time is
 *   on the appointment, which names the order);
 * - `order_refund.appointment_id`: Remove student's refund on an appointment names the appointment
 *   to cancel once the provider made the refund (as `enrollment_id` does for a seat), and whether
 *   the student is mailed then (`appointment_notify`);
 * - `sync_mapping.local_type` 'appointment': an appointment's Zoom meeting.
 */
export class Migration20261127060000_appointment_admin extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "appointment" add column "meeting_url" text null;`);
    this.addSql(`alter table "appointment" add column "sequence" integer not null default 0 check ("sequence" >= 0);`);
    this.addSql(`alter table "order_line" drop constraint if exists "order_line_kind_check";`);
    this.addSql(`alter table "order_line" add constraint "order_line_kind_check" check ("kind" in ('seat', 'product', 'appointment'));`);
    this.addSql(`alter table "order_refund" add column "appointment_id" uuid null references "appointment" ("id") on delete set null;`);
    this.addSql(`alter table "order_refund" add column "appointment_notify" boolean not null default true;`);
    this.addSql(`alter table "sync_mapping" drop constraint if exists "sync_mapping_local_type_check";`);
    this.addSql(`alter table "sync_mapping" add constraint "sync_mapping_local_type_check"
      check ("local_type" in ('activity', 'event', 'enrollment', 'order', 'student', 'appointment'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "sync_mapping" drop constraint if exists "sync_mapping_local_type_check";`);
    this.addSql(`alter table "sync_mapping" add constraint "sync_mapping_local_type_check"
      check ("local_type" in ('activity', 'event', 'enrollment', 'order', 'student'));`);
    this.addSql(`alter table "order_refund" drop column if exists "appointment_notify";`);
    this.addSql(`alter table "order_refund" drop column if exists "appointment_id";`);
    this.addSql(`alter table "order_line" drop constraint if exists "order_line_kind_check";`);
    this.addSql(`alter table "order_line" add constraint "order_line_kind_check" check ("kind" in ('seat', 'product'));`);
    this.addSql(`alter table "appointment" drop column if exists "sequence";`);
    this.addSql(`alter table "appointment" drop column if exists "meeting_url";`);
  }
}
