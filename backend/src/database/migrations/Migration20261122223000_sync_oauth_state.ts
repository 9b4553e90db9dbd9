import { Migration } from '@mikro-orm/migrations';

/**
 * Provider sync, connecting (issue 11): one row per Connect click. Only the SHA-256 of the OAuth
 * `state` is kept, bound to the organization, the provider and the signed-in session that asked;
 * a callback claims it once (used_at) within 10 minutes.
 */
export class Migration20261122223000_sync_oauth_state extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sync_oauth_state" (
      "id" uuid not null primary key,
      "state_hash" text not null,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "provider" text not null check ("provider" in ('eventbrite', 'mailchimp', 'klaviyo', 'zoom')),
      "session_id" uuid not null,
      "redirect_uri" text not null,
      "pkce" boolean not null default false,
      "created_at" timestamptz not null default now(),
      "used_at" timestamptz null,
      constraint "sync_oauth_state_hash_unique" unique ("state_hash"));`);
    this.addSql(`create index "sync_oauth_state_created_at_index" on "sync_oauth_state" ("created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sync_oauth_state";`);
  }
}
