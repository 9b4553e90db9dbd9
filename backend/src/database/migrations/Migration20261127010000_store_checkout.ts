import { Migration } from '@mikro-orm/migrations';

/**
 * The store's checkout (issue 21):
 * - `customer_order.access_token_hash`: an order bought at the store carries the SHA-256 of a
 *   random 256-bit token; the token itself is only in the buyer's confirmation link and mail, so the
 *   booking's page opens for whoever holds it and for nobody who guesses an order id.
 * - `customer_order.discount_code_id`: the code the store priced the order with.
 */
export class Migration20261127010000_store_checkout extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "customer_order" add column "access_token_hash" text null;`);
    this.addSql(
      `alter table "customer_order" add column "discount_code_id" uuid null references "discount_code" ("id") on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "customer_order" drop column "discount_code_id";`);
    this.addSql(`alter table "customer_order" drop column "access_token_hash";`);
  }
}
