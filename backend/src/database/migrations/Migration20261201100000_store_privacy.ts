import { Migration } from '@mikro-orm/migrations';

/**
 * The public store reveals nothing about other people (issue 31, item 4). A store order keeps the
 * buyer's name and email as typed for it (its page and confirmation show those, never the stored
 * student's; null on older orders, which fall back to the student). A waiver signing started in
 * the store's checkout belongs to the email typed until the checkout commits: it has no student
 * yet (checkout_email and checkout_name name the signer), and the checkout attaches it to the
 * student it finds or creates.
 */
export class Migration20261201100000_store_privacy extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "customer_order" add column "buyer_first_name" text null, add column "buyer_last_name" text null, add column "buyer_email" text null;`,
    );
    this.addSql(
      `alter table "waiver_submission" alter column "student_id" drop not null, add column "checkout_email" text null, add column "checkout_name" text null;`,
    );
    this.addSql(
      `alter table "waiver_submission" add constraint "waiver_submission_signer_check" check ("student_id" is not null or "checkout_email" is not null);`,
    );
  }

  override async down(): Promise<void> {
    // A checkout's signing that never became a student's has no one to keep it for.
    this.addSql(`delete from "waiver_submission" where "student_id" is null;`);
    this.addSql(`alter table "waiver_submission" drop constraint if exists "waiver_submission_signer_check";`);
    this.addSql(
      `alter table "waiver_submission" alter column "student_id" set not null, drop column if exists "checkout_email", drop column if exists "checkout_name";`,
    );
    this.addSql(
      `alter table "customer_order" drop column if exists "buyer_first_name", drop column if exists "buyer_last_name", drop column if exists "buyer_email";`,
    );
  }
}
