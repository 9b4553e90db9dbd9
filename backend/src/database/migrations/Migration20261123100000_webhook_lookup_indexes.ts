import { Migration } from '@mikro-orm/migrations';

/**
 * The lookups of a refund's change at the provider (RefundsService.providerUpdate, from Stripe's
 * refund webhooks) at studio-chain scale (1,000,000 orders): the ledger row by the provider's refund
 * id, and, for a refund not in the ledger yet, the orders of its payment intent, both in the event's
 * organization. Without these every delivery read the whole table.
 *
 * Neither is unique: nothing in the data stops two orders from naming one payment intent (recorded
 * and synced orders bring their own; the handler reads all of them), and a duplicate provider refund
 * id must not make a refund's commit fail after the money moved. The payment intent index is
 * partial: the column is null for every order never charged here (direct enrolments at $0, sales
 * of other platforms, unpaid payment links). Every ledger row has its provider refund id.
 */
export class Migration20261123100000_webhook_lookup_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "customer_order_payment_intent_index" on "customer_order" ("organization_id", "payment_intent_id") where "payment_intent_id" is not null;`,
    );
    this.addSql(`create index "order_refund_provider_refund_index" on "order_refund" ("organization_id", "provider_refund_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "order_refund_provider_refund_index";`);
    this.addSql(`drop index if exists "customer_order_payment_intent_index";`);
  }
}
