import { Migration } from '@mikro-orm/migrations';

/**
 * What a store order's buyer paid from their gift cards and store credit (issue 24), owned by the
 * orders module: the card is charged the order's total less this. (The uses themselves are rows of
 * the wallet's ledger, each naming the order.)
 */
export class Migration20261127180000_order_wallet extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "customer_order" add column "wallet_cents" integer not null default 0 check ("wallet_cents" >= 0);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "customer_order" drop column "wallet_cents";`);
  }
}
