import { Migration } from '@mikro-orm/migrations';

/**
 * The checkout form's answers given at the store (issue 21): one row per order, or per ticket when
 * the course collects its form per ticket. `answers` keeps each field's label and the answer in
 * words as they were when answered.
 */
export class Migration20261127020000_order_form_submission extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "order_form_submission" (
      "id" uuid not null,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "order_id" uuid not null references "customer_order" ("id") on delete cascade,
      "ticket" smallint null,
      "answers" jsonb not null,
      "created_at" timestamptz not null,
      constraint "order_form_submission_pkey" primary key ("id")
    );`);
    this.addSql(
      `create index "order_form_submission_order_id_ticket_index" on "order_form_submission" ("order_id", "ticket");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "order_form_submission";`);
  }
}
