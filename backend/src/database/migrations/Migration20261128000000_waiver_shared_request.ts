import { Migration } from '@mikro-orm/migrations';

/**
 * A seat whose student already has a pending signature request for the same waiver shares that
 * request (issue 25: the student was asked again on each enrollment): no second request at the
 * provider, no second mail; signing once signs every seat.
 */
export class Migration20261128000000_waiver_shared_request extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "waiver_submission" add column "shares_request_of" uuid null references "waiver_submission" ("id") on delete set null;`,
    );
    this.addSql(
      `create index "waiver_submission_shares_request_of_index" on "waiver_submission" ("shares_request_of") where "shares_request_of" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "waiver_submission" drop column "shares_request_of";`);
  }
}
