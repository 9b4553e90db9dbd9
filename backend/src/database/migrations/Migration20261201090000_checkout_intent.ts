import { Migration } from '@mikro-orm/migrations';

/**
 * A checkout is one durable intent (issue 31): the order keeps its payment page's address beside the
 * page's id (a retried checkout answers it again) and the hash of the store request that made it (the
 * same request resumes the order instead of holding more seats). A pending order is found by that
 * hash, and the page deadline finds pending orders without a page.
 */
export class Migration20261201090000_checkout_intent extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "customer_order" add column "checkout_url" text null, add column "checkout_request_hash" text null;`);
    this.addSql(
      `create index "customer_order_pending_request_index" on "customer_order" ("organization_id", "checkout_request_hash") where "status" = 'pending' and "checkout_request_hash" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "customer_order_pending_request_index";`);
    this.addSql(`alter table "customer_order" drop column "checkout_url", drop column "checkout_request_hash";`);
  }
}
