import { Migration } from '@mikro-orm/migrations';

/**
 * Attendance (issue 23): when a student was checked in to a session and by which admin. Attendance
 * itself (Checked in, No-show) is derived from this and the session's end (libs/contracts
 * attendanceOf), never stored. Undo clears both.
 */
export class Migration20261127080000_attendance extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "enrollment" add column "checked_in_at" timestamptz null;`);
    this.addSql(`alter table "enrollment" add column "checked_in_by" uuid null references "app_user" ("id") on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "enrollment" drop column if exists "checked_in_by";`);
    this.addSql(`alter table "enrollment" drop column if exists "checked_in_at";`);
  }
}
