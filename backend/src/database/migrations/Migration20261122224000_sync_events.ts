import { Migration } from '@mikro-orm/migrations';

/**
 * Events sync (issue 11: Eventbrite and Zoom).
 * - `customer_order.external_id`: the provider's order id of an order sold elsewhere (Eventbrite), unique per
 *   organization and source, so the same sale is recorded once however often it arrives.
 * - `event.meeting_join_url`, `event.meeting_summary`: the session's video meeting, written through
 *   EventsService.attachMeeting (the scheduling module's own columns).
 * - `sync_external_sale`: each sale that came from a provider, recorded or held as a conflict
 *   (overbooking) for the admin, one row per provider order id.
 */
export class Migration20261122224000_sync_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "customer_order" add column "external_id" text null;`);
    this.addSql(
      `create unique index "order_external_unique" on "customer_order" ("organization_id", "source", "external_id") where "external_id" is not null;`,
    );
    this.addSql(`alter table "event" add column "meeting_join_url" text null, add column "meeting_summary" text null;`);
    this.addSql(`create table "sync_external_sale" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "provider" text not null check ("provider" in ('eventbrite')),
      "remote_order_id" text not null,
      "event_id" uuid null,
      "seats" integer not null,
      "buyer_email" text not null,
      "stage" text not null check ("stage" in ('recorded', 'conflict', 'resolved')),
      "order_id" uuid null,
      "resolved_at" timestamptz null,
      "resolved_by" uuid null references "app_user" ("id") on delete set null,
      "last_error" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "sync_external_sale_unique" unique ("organization_id", "provider", "remote_order_id"));`);
    this.addSql(
      `create index "sync_external_sale_conflicts" on "sync_external_sale" ("organization_id", "created_at") where "stage" = 'conflict';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sync_external_sale";`);
    this.addSql(`alter table "event" drop column "meeting_join_url", drop column "meeting_summary";`);
    this.addSql(`drop index if exists "order_external_unique";`);
    this.addSql(`alter table "customer_order" drop column "external_id";`);
  }
}
