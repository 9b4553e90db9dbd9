import { Migration } from '@mikro-orm/migrations';

/**
 * Provider sync (issue 11): the account each organization connected per provider (tokens only as
 * AES-256-GCM ciphertext), the provider's config_schema settings, and one mapping row per synced
 * record with its stage.
 */
export class Migration20261122220000_sync extends Migration {
  override async up(): Promise<void> {
    const provider = `"provider" text not null check ("provider" in ('eventbrite', 'mailchimp', 'klaviyo', 'zoom'))`;
    this.addSql(`create table "sync_connection" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      ${provider},
      "account_name" text null,
      "access_token_encrypted" text not null,
      "refresh_token_encrypted" text null,
      "scopes" jsonb not null default '[]',
      "expires_at" timestamptz null,
      "metadata" jsonb not null default '{}',
      "connected_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "sync_connection_organization_provider_unique" unique ("organization_id", "provider"));`);
    this.addSql(`create table "sync_config" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      ${provider},
      "config" jsonb not null,
      "updated_at" timestamptz not null default now(),
      constraint "sync_config_organization_provider_unique" unique ("organization_id", "provider"));`);
    this.addSql(`create table "sync_mapping" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      ${provider},
      "local_type" text not null check ("local_type" in ('activity', 'event', 'enrollment', 'order', 'student')),
      "local_id" uuid not null,
      "remote_id" text null,
      "action" text null,
      "stage" text not null default 'pending' check ("stage" in ('pending', 'queued', 'syncing', 'synced', 'failed', 'cancelled')),
      "last_error" text null,
      "attempts" integer not null default 0,
      "last_synced_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "sync_mapping_record_unique" unique ("organization_id", "provider", "local_type", "local_id"));`);
    this.addSql(`create index "sync_mapping_stage_index" on "sync_mapping" ("organization_id", "provider", "stage");`);
    this.addSql(`create unique index "sync_mapping_remote_unique" on "sync_mapping" ("organization_id", "provider", "local_type", "remote_id") where "remote_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sync_mapping";`);
    this.addSql(`drop table if exists "sync_config";`);
    this.addSql(`drop table if exists "sync_connection";`);
  }
}
