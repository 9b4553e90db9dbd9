import { Migration } from '@mikro-orm/migrations';

/**
 * The transactional outbox (issue 19): what must follow a committed change (points, waiver requests,
 * sync jobs, payment-link settlement, mail) is a row written in the same transaction as the change,
 * one row per subscriber, relayed to the `outbox` queue and marked done by the job that handled it.
 *
 * - `event_id`: the announcement the row is one subscriber's delivery of (its rows share it).
 * - `seq`: the order rows were written in. Rows of one subscriber with the same `ordering_key` (an
 *   order, an enrollment) are relayed one after the other: a row goes only once every earlier row of
 *   its key is done or failed for good, so a refund's points are never taken before they were given.
 * - `relayed_at`: handed to the queue; `done_at`: its handler finished; `failed_at`: its attempts are
 *   spent (`last_error` says why). A row relayed long ago and neither done nor failed is relayed again
 *   (its job was lost with a process or a Redis): handlers are idempotent by keys of their own.
 */
export class Migration20261125000000_outbox extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "outbox_message" (
      "id" uuid primary key,
      "seq" bigserial not null,
      "event_id" uuid not null,
      "organization_id" uuid null,
      "type" text not null,
      "subscriber" text not null,
      "ordering_key" text null,
      "payload" jsonb not null,
      "created_at" timestamptz not null default now(),
      "relayed_at" timestamptz null,
      "attempts" int not null default 0,
      "done_at" timestamptz null,
      "failed_at" timestamptz null,
      "last_error" text null
    );`);
    this.addSql(`create index "outbox_message_unrelayed" on "outbox_message" ("seq") where "relayed_at" is null;`);
    this.addSql(
      `create index "outbox_message_open_by_key" on "outbox_message" ("subscriber", "ordering_key", "seq") where "done_at" is null and "failed_at" is null;`,
    );
    this.addSql(
      `create index "outbox_message_in_flight" on "outbox_message" ("relayed_at") where "relayed_at" is not null and "done_at" is null and "failed_at" is null;`,
    );
    this.addSql(`create index "outbox_message_done" on "outbox_message" ("done_at") where "done_at" is not null;`);
    this.addSql(`create index "outbox_message_event" on "outbox_message" ("type", "event_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "outbox_message";`);
  }
}
