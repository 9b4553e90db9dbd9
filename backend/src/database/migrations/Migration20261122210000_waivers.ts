import { Migration } from '@mikro-orm/migrations';

/**
 * Waivers through an e-signature service (issue 10). A submission is one student's signature
 * request for one waiver template (usually for one enrollment); the provider's template ids are kept
 * per provider. One submission per enrollment; one row per provider submission (webhooks repeat).
 */
export class Migration20261122210000_waivers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "esign_template" (
      "template_id" uuid not null references "waiver_template" ("id") on delete cascade,
      "provider" text not null check ("provider" in ('demo', 'docuseal')),
      "provider_template_id" text not null,
      "created_at" timestamptz not null default now(),
      primary key ("template_id", "provider"));`);
    this.addSql(`create table "waiver_submission" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "student_id" uuid not null references "student" ("id") on delete cascade,
      "enrollment_id" uuid null references "enrollment" ("id") on delete set null,
      "template_id" uuid not null references "waiver_template" ("id") on delete cascade,
      "status" text not null default 'pending' check ("status" in ('pending', 'completed', 'expired')),
      "provider" text not null check ("provider" in ('demo', 'docuseal')),
      "provider_submission_id" text null,
      "provider_submitter_id" text null,
      "sign_url" text null,
      "submission_url" text null,
      "signer_name" text null,
      "signer_ip" text null,
      "created_at" timestamptz not null default now(),
      "completed_at" timestamptz null,
      "last_reminded_at" timestamptz null);`);
    this.addSql(`create index "waiver_submission_student_index" on "waiver_submission" ("organization_id", "student_id", "created_at" desc);`);
    this.addSql(`create index "waiver_submission_template_index" on "waiver_submission" ("organization_id", "template_id", "status");`);
    this.addSql(`create unique index "waiver_submission_enrollment_once" on "waiver_submission" ("enrollment_id") where "enrollment_id" is not null;`);
    this.addSql(`create unique index "waiver_submission_provider_id" on "waiver_submission" ("provider", "provider_submission_id") where "provider_submission_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "waiver_submission";`);
    this.addSql(`drop table if exists "esign_template";`);
  }
}
