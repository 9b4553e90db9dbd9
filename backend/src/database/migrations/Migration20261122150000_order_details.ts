import { Migration } from '@mikro-orm/migrations';

/**
 * Order details (issue 9): the payment intent and receipt of an order, its lines, and the indexes
 * the Orders page sorts and searches on. The direct-enroll orders made so far get their seat line
 * (a zero-total workbench order for one seat).
 */
export class Migration20261122150000_order_details extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "customer_order" add column "payment_intent_id" text null, add column "receipt_url" text null;`);
    this.addSql(`alter table "customer_order" add constraint "customer_order_refund_not_above_total" check ("refunded_cents" <= "total_cents");`);

    this.addSql(`create table "order_line" (
      "id" uuid not null primary key,
      "order_id" uuid not null references "customer_order" ("id") on delete cascade,
      "position" smallint not null default 0,
      "kind" text not null check ("kind" in ('seat', 'product')),
      "event_id" uuid null,
      "product_id" uuid null,
      "product_price_id" uuid null,
      "description" text not null,
      "unit_price_cents" integer not null check ("unit_price_cents" >= 0),
      "quantity" integer not null default 1 check ("quantity" >= 1),
      "discount_cents" integer not null default 0 check ("discount_cents" >= 0),
      "loyalty_points" integer not null default 0 check ("loyalty_points" >= 0),
      constraint "order_line_what" check (("kind" = 'seat') = ("event_id" is not null)));`);
    this.addSql(`create index "order_line_order_id_index" on "order_line" ("order_id", "position");`);

    // The direct-enroll orders of today: one seat, free.
    this.addSql(`insert into "order_line" ("id", "order_id", "position", "kind", "event_id", "description", "unit_price_cents", "quantity")
      select gen_random_uuid(), o."id", 0, 'seat', o."event_id", o."description", 0, 1
      from "customer_order" o where o."event_id" is not null;`);

    // The Orders page: one organization's rows in each sort order, and filters by status and source.
    this.addSql(`create index "customer_order_created_index" on "customer_order" ("organization_id", "created_at", "id");`);
    this.addSql(`create index "customer_order_total_index" on "customer_order" ("organization_id", "total_cents", "id");`);
    this.addSql(`create index "customer_order_status_index" on "customer_order" ("organization_id", "status", "created_at");`);
    this.addSql(`create index "customer_order_source_index" on "customer_order" ("organization_id", "source", "created_at");`);
  }

  override async down(): Promise<void> {
    for (const index of ['customer_order_created_index', 'customer_order_total_index', 'customer_order_status_index', 'customer_order_source_index']) {
      this.addSql(`drop index if exists "${index}";`);
    }
    this.addSql(`drop table if exists "order_line" cascade;`);
    this.addSql(`alter table "customer_order" drop constraint if exists "customer_order_refund_not_above_total";`);
    this.addSql(`alter table "customer_order" drop column "payment_intent_id", drop column "receipt_url";`);
  }
}
