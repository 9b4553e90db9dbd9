import { Migration } from '@mikro-orm/migrations';

/**
 * An order line may pay for an appointment (issue 22): kind 'appointment', the party at one time of
 * an appointment course (the appointment row names the order). It has no session, so the
 * "a seat line names its session" rule (order_line_what) holds as it is.
 */
export class Migration20261127060000_appointment_order_lines extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "order_line" drop constraint if exists "order_line_kind_check";`);
    this.addSql(`alter table "order_line" add constraint "order_line_kind_check" check ("kind" in ('seat', 'product', 'appointment'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "order_line" drop constraint if exists "order_line_kind_check";`);
    this.addSql(`alter table "order_line" add constraint "order_line_kind_check" check ("kind" in ('seat', 'product'));`);
  }
}
