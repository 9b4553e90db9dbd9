import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes of the admin lists at studio-chain scale (issue 12): each filter and sort of the Orders
 * page reads its page off one b-tree ending in the id, so a page (and a keyset page after a cursor)
 * stops after its rows whatever the size of the table; the Courses list's newest-first sort too.
 */
export class Migration20261122233000_list_indexes extends Migration {
  override async up(): Promise<void> {
    // Status or source filter, newest first (the order-details indexes end at created_at, not the id).
    this.addSql(`create index "customer_order_status_created_id_index" on "customer_order" ("organization_id", "status", "created_at", "id");`);
    this.addSql(`drop index if exists "customer_order_status_index";`);
    this.addSql(`create index "customer_order_source_created_id_index" on "customer_order" ("organization_id", "source", "created_at", "id");`);
    this.addSql(`drop index if exists "customer_order_source_index";`);
    // Status filter sorted by total.
    this.addSql(`create index "customer_order_status_total_index" on "customer_order" ("organization_id", "status", "total_cents", "id");`);
    // Courses newest first, ties broken by the id.
    this.addSql(`create index "activity_organization_created_id_index" on "activity" ("organization_id", "created_at", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "activity_organization_created_id_index";`);
    this.addSql(`drop index if exists "customer_order_status_total_index";`);
    this.addSql(`create index "customer_order_source_index" on "customer_order" ("organization_id", "source", "created_at");`);
    this.addSql(`drop index if exists "customer_order_source_created_id_index";`);
    this.addSql(`create index "customer_order_status_index" on "customer_order" ("organization_id", "status", "created_at");`);
    this.addSql(`drop index if exists "customer_order_status_created_id_index";`);
  }
}
