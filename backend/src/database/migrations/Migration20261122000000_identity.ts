import { Migration } from '@mikro-orm/migrations';

/** Organizations, admin users and their sign-in sessions. */
export class Migration20261122000000_identity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create type "user_role" as enum ('owner', 'staff', 'super_admin');`);
    this.addSql(`create table "organization" (
      "id" uuid not null primary key,
      "name" text not null,
      "timezone" text not null default 'America/New_York',
      "listed_course" boolean not null default false,
      "public_url" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now());`);
    this.addSql(`create index "organization_name_index" on "organization" ("name");`);
    this.addSql(`create table "app_user" (
      "id" uuid not null primary key,
      "email" text not null,
      "first_name" text not null default '',
      "last_name" text not null default '',
      "password_hash" text not null,
      "role" "user_role" not null default 'staff',
      "organization_id" uuid not null references "organization" ("id") on update cascade on delete restrict,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now());`);
    this.addSql(`alter table "app_user" add constraint "app_user_email_unique" unique ("email");`);
    this.addSql(`create index "app_user_organization_id_index" on "app_user" ("organization_id");`);
    this.addSql(`create table "auth_session" (
      "id" uuid not null primary key,
      "user_id" uuid not null references "app_user" ("id") on update cascade on delete cascade,
      "token_hash" text not null,
      "created_at" timestamptz not null default now(),
      "expires_at" timestamptz not null,
      "revoked_at" timestamptz null);`);
    this.addSql(`alter table "auth_session" add constraint "auth_session_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "auth_session_user_id_index" on "auth_session" ("user_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "auth_session";`);
    this.addSql(`drop table if exists "app_user";`);
    this.addSql(`drop table if exists "organization";`);
    this.addSql(`drop type if exists "user_role";`);
  }
}
