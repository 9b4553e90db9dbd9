import { Migration } from '@mikro-orm/migrations';

/**
 * The waiver signed inside the store's checkout (issue 21): a signature request made for a buyer
 * before payment (no enrollment yet) is named by a secret token, kept hashed here; the checkout
 * sends the token back. Completed requests are looked up by student and template (a returning
 * student who signed is not asked again).
 */
export class Migration20261127040000_waiver_checkout_token extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "waiver_submission" add column "checkout_token_hash" text null;`);
    this.addSql(
      `create unique index "waiver_submission_checkout_token" on "waiver_submission" ("checkout_token_hash") where "checkout_token_hash" is not null;`,
    );
    this.addSql(
      `create index "waiver_submission_student_template_index" on "waiver_submission" ("organization_id", "student_id", "template_id", "status");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "waiver_submission_student_template_index";`);
    this.addSql(`drop index if exists "waiver_submission_checkout_token";`);
    this.addSql(`alter table "waiver_submission" drop column if exists "checkout_token_hash";`);
  }
}
