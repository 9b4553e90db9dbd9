import { Migration } from '@mikro-orm/migrations';

/**
 * Check-in of appointments (issue 23), as enrollments have it: when the student was checked in and
 * by which admin. Attendance (Checked in, No-show) is derived from this and the appointment's end
 * (libs/contracts attendanceOf), never stored. Undo clears both.
 */
export class Migration20261127120000_appointment_check_in extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "appointment" add column "checked_in_at" timestamptz null;`);
    this.addSql(`alter table "appointment" add column "checked_in_by" uuid null references "app_user" ("id") on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "appointment" drop column if exists "checked_in_by";`);
    this.addSql(`alter table "appointment" drop column if exists "checked_in_at";`);
  }
}
