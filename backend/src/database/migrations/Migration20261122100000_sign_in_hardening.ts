import { Migration } from '@mikro-orm/migrations';

/** Known devices (their own sign-in budget) and the super admin's organization per session. */
export class Migration20261122100000_sign_in_hardening extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "known_device" (
      "id" uuid not null primary key,
      "user_id" uuid not null references "app_user" ("id") on update cascade on delete cascade,
      "device_hash" text not null,
      "created_at" timestamptz not null default now(),
      "last_seen_at" timestamptz not null default now());`);
    this.addSql(`alter table "known_device" add constraint "known_device_user_id_device_hash_unique" unique ("user_id", "device_hash");`);
    this.addSql(`alter table "auth_session" add column "acting_organization_id" uuid null
      references "organization" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "auth_session_acting_organization_id_index" on "auth_session" ("acting_organization_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "auth_session_acting_organization_id_index";`);
    this.addSql(`alter table "auth_session" drop column if exists "acting_organization_id";`);
    this.addSql(`drop table if exists "known_device";`);
  }
}
