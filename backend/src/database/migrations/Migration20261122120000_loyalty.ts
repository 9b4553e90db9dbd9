import { Migration } from '@mikro-orm/migrations';

/** The loyalty programme: at most one per organization (spec 000 §3, §9). */
export class Migration20261122120000_loyalty extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "loyalty_program" (
      "id" uuid not null,
      "organization_id" uuid not null,
      "status" text not null check ("status" in ('active', 'disabled')),
      "unit" text not null default 'points',
      "updated_by" uuid null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "loyalty_program_pkey" primary key ("id"),
      constraint "loyalty_program_organization_id_unique" unique ("organization_id"),
      constraint "loyalty_program_organization_id_foreign" foreign key ("organization_id")
        references "organization" ("id") on update cascade on delete cascade
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "loyalty_program";`);
  }
}
