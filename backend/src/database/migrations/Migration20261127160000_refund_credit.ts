import { Migration } from '@mikro-orm/migrations';

/**
 * Refunds to store credit (issue 24, brief R):
 * - `order_refund.refund_to`: where the refund went, the card (asked of the provider) or the student's
 *   store credit (made at once, no provider call);
 * - `order_refund.wallet_cents`: the part of the refund that gift-card or store-credit money had paid
 *   (refunded first, back to its holdings or to store credit; the provider is asked for the rest);
 * - `order_refund.return_use`: a removal's refund that also gives back the membership booking or pack
 *   credit the booking used, when the refund is made;
 * - `session_cancellation.refund_to` and the seat outcome `credited`: the studio's session cancel
 *   may refund everyone to store credit.
 */
export class Migration20261127160000_refund_credit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "order_refund"
      add column "refund_to" text not null default 'card' check ("refund_to" in ('card', 'store_credit')),
      add column "wallet_cents" integer not null default 0 check ("wallet_cents" >= 0),
      add column "return_use" boolean not null default false;`);
    this.addSql(`alter table "session_cancellation"
      add column "refund_to" text not null default 'card' check ("refund_to" in ('card', 'store_credit'));`);
    this.addSql(`alter table "session_cancellation_seat" drop constraint if exists "session_cancellation_seat_outcome_check";`);
    this.addSql(`alter table "session_cancellation_seat" add constraint "session_cancellation_seat_outcome_check"
      check ("outcome" in ('pending', 'refunded', 'credited', 'not_refunded', 'refund_failed', 'no_refund'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "session_cancellation_seat" drop constraint if exists "session_cancellation_seat_outcome_check";`);
    this.addSql(`alter table "session_cancellation_seat" add constraint "session_cancellation_seat_outcome_check"
      check ("outcome" in ('pending', 'refunded', 'not_refunded', 'refund_failed', 'no_refund'));`);
    this.addSql(`alter table "session_cancellation" drop column "refund_to";`);
    this.addSql(`alter table "order_refund" drop column "refund_to", drop column "wallet_cents", drop column "return_use";`);
  }
}
