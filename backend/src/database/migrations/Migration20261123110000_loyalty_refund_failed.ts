import { Migration } from '@mikro-orm/migrations';

/**
 * Loyalty points given back when the refund that took them failed at the payment provider (reason
 * refund_failed). An entry made for a refund names its row in the order's refunds ledger
 * (refund_id), and the once-per-order index becomes once per order, reason and refund: an order
 * still earns once, a reversal or restoring applies once per refund, and an order refunded again
 * after a failed refund has its points taken back again. Entries made before keep a null refund_id,
 * so the reversals already made stay once per order.
 */
export class Migration20261123110000_loyalty_refund_failed extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "loyalty_entry" add column "refund_id" uuid null;`);
    this.addSql(`alter table "loyalty_entry" drop constraint "loyalty_entry_reason_check";`);
    this.addSql(
      `alter table "loyalty_entry" add constraint "loyalty_entry_reason_check" check ("reason" in ('earned', 'adjusted', 'redeemed', 'refund_reversal', 'refund_failed'));`,
    );
    this.addSql(`drop index "loyalty_entry_order_once";`);
    this.addSql(
      `create unique index "loyalty_entry_order_once" on "loyalty_entry" ("order_id", "reason", "refund_id") nulls not distinct where "order_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    // Fails while an order has more than one reversal, or a restoring exists: those are ledger entries, not dropped here.
    this.addSql(`drop index "loyalty_entry_order_once";`);
    this.addSql(`create unique index "loyalty_entry_order_once" on "loyalty_entry" ("order_id", "reason") where "order_id" is not null;`);
    this.addSql(`alter table "loyalty_entry" drop constraint "loyalty_entry_reason_check";`);
    this.addSql(`alter table "loyalty_entry" add constraint "loyalty_entry_reason_check" check ("reason" in ('earned', 'adjusted', 'redeemed', 'refund_reversal'));`);
    this.addSql(`alter table "loyalty_entry" drop column "refund_id";`);
  }
}
