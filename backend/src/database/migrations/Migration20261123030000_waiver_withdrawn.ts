import { Migration } from '@mikro-orm/migrations';

/**
 * A waiver request nobody needs any more (the student was removed from the session it was asked
 * for) is withdrawn: the time is kept, the status stays as it was (pending), and the request leaves
 * the student's waivers, takes no reminder and can no longer be signed.
 */
export class Migration20261123030000_waiver_withdrawn extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "waiver_submission" add column "withdrawn_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "waiver_submission" drop column "withdrawn_at";`);
  }
}
