import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 31 (items 5 and 6), what follows a change, kept out of transactions and in our database:
 * - `subscription.cancel_requested_at` / `cancel_requested_by`: an admin's cancel recorded before
 *   the payment provider is asked, outside any transaction (orders/subscription-cancel.ts);
 * - `sync_connection.refreshing_until`: the lease of a token refresh, which asks the provider outside
 *   any transaction (one refresh at a time per connection; sync/sync-connections.service.ts);
 * - `mail_sent`: the hash of each mail's dedupe key once its mail went out, so an occasion enqueued
 *   again after the queue forgot its job sends nothing (notifications/mail.service.ts);
 * - the waitlist's claim tokens are no longer written into `outbox_message.payload` (the offer mail
 *   derives its token from a server key); those of rows already handled or failed are erased. Rows
 *   still open keep theirs until their mail is sent (the handler accepts them), then age out with
 *   the outbox's done rows.
 */
export class Migration20261201110000_outside_effects extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "subscription" add column "cancel_requested_at" timestamptz null, add column "cancel_requested_by" uuid null;`);
    this.addSql(`alter table "sync_connection" add column "refreshing_until" timestamptz null;`);
    this.addSql(`create table "mail_sent" (
      "key_hash" text primary key,
      "sent_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "mail_sent_sent_at_index" on "mail_sent" ("sent_at");`);
    this.addSql(
      `update "outbox_message" set "payload" = "payload" - 'token'
        where "type" = 'waitlist.offered' and "payload"->>'token' is not null and ("done_at" is not null or "failed_at" is not null);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "mail_sent";`);
    this.addSql(`alter table "sync_connection" drop column "refreshing_until";`);
    this.addSql(`alter table "subscription" drop column "cancel_requested_at", drop column "cancel_requested_by";`);
  }
}
