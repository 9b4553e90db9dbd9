import { Migration } from '@mikro-orm/migrations';

/**
 * Refunds made at the payment provider itself (a studio owner refunding a payment in the Stripe
 * dashboard) are recorded in the order's refunds ledger from Stripe's webhooks.
 *
 * - `origin`: `app` for a refund this API made (the drawer's, Remove student's), `provider` for one
 *   recorded from the provider's webhooks; the drawer and the history tell them apart.
 * - `order_refund_provider_once`: a provider refund is recorded at most once per studio, whichever
 *   webhooks announce it (refund.created, refund.updated, charge.refunded) and however many times.
 *   Partial: the API's own rows keep their non-unique lookup (a duplicate provider id must not make
 *   a refund's commit fail after the money moved, see webhook_lookup_indexes).
 * - The amount of a provider row is what it counted on the order, never beyond the order's total: a
 *   refund made at the provider on an order already fully refunded here counts 0 (and is still listed).
 */
export class Migration20261123120000_external_refunds extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "order_refund" add column "origin" text not null default 'app';`);
    this.addSql(
      `alter table "order_refund" add constraint "order_refund_origin_check" check ("origin" in ('app', 'provider'));`,
    );
    this.addSql(`alter table "order_refund" drop constraint "order_refund_amount_cents_check";`);
    this.addSql(
      `alter table "order_refund" add constraint "order_refund_amount_cents_check" check ("amount_cents" > 0 or ("origin" = 'provider' and "amount_cents" = 0));`,
    );
    this.addSql(
      `create unique index "order_refund_provider_once" on "order_refund" ("organization_id", "provider_refund_id") where "origin" = 'provider';`,
    );
  }

  override async down(): Promise<void> {
    // Fails while a provider row counted 0: those are ledger rows, not dropped here.
    this.addSql(`drop index if exists "order_refund_provider_once";`);
    this.addSql(`alter table "order_refund" drop constraint "order_refund_amount_cents_check";`);
    this.addSql(
      `alter table "order_refund" add constraint "order_refund_amount_cents_check" check ("amount_cents" > 0);`,
    );
    this.addSql(`alter table "order_refund" drop constraint "order_refund_origin_check";`);
    this.addSql(`alter table "order_refund" drop column "origin";`);
  }
}
