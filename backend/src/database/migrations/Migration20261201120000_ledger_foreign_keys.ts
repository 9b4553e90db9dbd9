import { Migration } from '@mikro-orm/migrations';

/**
 * Foreign keys on the money and points ledgers (issue 32): a ledger row that names another row
 * (an order, a refund, a booking, a holding, a student) names one that exists, and deleting a row
 * never takes money history with it. This overrules the wallet migration's "no foreign key" for
 * other modules' rows: the module rule is about code (no module writes another's tables); the
 * database still refuses a ledger row that points at nothing.
 *
 * ON DELETE, per reference:
 * - NO ACTION (the deletion is refused while a ledger row names the row) for what the history is
 *   about: orders (order_refund, order_activity, loyalty_entry, wallet_holding, wallet_entry,
 *   discount_use, session_cancellation_seat), refunds (loyalty_entry.refund_id), holdings and the
 *   use a return gives back (wallet_entry), subscriptions (wallet_holding, order_activity) and
 *   students (loyalty_entry, wallet_holding, wallet_entry). The cascades these replace
 *   (order_refund.order_id, order_activity.order_id, wallet_entry.holding_id and returns_entry_id,
 *   the ledgers' student_id) deleted money history with its order or student. The app deletes none
 *   of these rows. NO ACTION rather than RESTRICT: both refuse, but NO ACTION is checked at the end
 *   of the statement, so a deletion that cascades to both a ledger row and what it names (every
 *   organization_id cascades; today app_user refuses an organization's deletion anyway) is not
 *   refused by the order the cascades happen to run in. The ledgers' organization_id cascades stay.
 * - SET NULL for bookings: enrollment_id (order_refund, wallet_entry) and appointment_id
 *   (wallet_entry; order_refund's is SET NULL already). Deleting a session deletes its removed
 *   enrollments (EventsService.delete: "their history is in orders"); the refund or the credit use
 *   stays, still naming its order. A wallet use that named only its booking (every booking's use
 *   also names its order today) keeps its `use_names_what` check: such a deletion is refused.
 * - SET NULL for wallet_holding.product_id: the holding copied what the product covers when it was
 *   granted; the product is not the history.
 *
 * Existing orphans (a ledger row naming a row that no longer exists, possible in production data
 * written while there was no foreign key, or after a cascade took a refund with its order): a
 * nullable column is set to null (a NOTICE says how many per column); no money row is deleted. What
 * cannot be cleaned that way stops the migration with a message naming the rows to look at: a
 * wallet use that would name nothing, a discount use of a missing order (order_id is its key), two
 * loyalty entries of one order and reason whose refunds are both gone (their once-per-refund index).
 *
 * Indexes for the new references that a deletion (or a lookup) would otherwise scan for:
 * wallet_entry's order_id, enrollment_id and appointment_id (a session's deletion deletes
 * enrollments; the wallet reads a booking's use by them), order_refund.enrollment_id,
 * loyalty_entry.refund_id and wallet_holding's order_id and product_id, each partial (not null).
 */
export class Migration20261201120000_ledger_foreign_keys extends Migration {
  override async up(): Promise<void> {
    // 1. What cannot be cleaned by setting a column to null: stop here, naming it.
    this.addSql(`do $$
declare n bigint;
begin
  select count(*) into n from "wallet_entry" w
   where w."reason" = 'use'
     and (w."order_id" is null or not exists (select 1 from "customer_order" o where o."id" = w."order_id"))
     and (w."enrollment_id" is null or not exists (select 1 from "enrollment" e where e."id" = w."enrollment_id"))
     and (w."appointment_id" is null or not exists (select 1 from "appointment" a where a."id" = w."appointment_id"));
  if n > 0 then
    raise exception 'ledger_foreign_keys: % wallet_entry use row(s) name no existing order, enrollment or appointment', n
      using hint = 'Point each at the booking or order it paid for (select id, order_id, enrollment_id, appointment_id from wallet_entry where reason = ''use'' ...), then migrate again. No ledger row is deleted.';
  end if;
  select count(*) into n from "discount_use" d where not exists (select 1 from "customer_order" o where o."id" = d."order_id");
  if n > 0 then
    raise exception 'ledger_foreign_keys: % discount_use row(s) name an order that does not exist', n
      using hint = 'select * from discount_use d where not exists (select 1 from customer_order o where o.id = d.order_id)';
  end if;
  select count(*) into n from (
    select l."order_id", l."reason" from "loyalty_entry" l
     where l."order_id" is not null
       and exists (select 1 from "customer_order" o where o."id" = l."order_id")
       and (l."refund_id" is null or not exists (select 1 from "order_refund" r where r."id" = l."refund_id"))
     group by l."order_id", l."reason" having count(*) > 1) twice;
  if n > 0 then
    raise exception 'ledger_foreign_keys: % order(s) have loyalty entries of one reason whose refunds are gone (their refund_id cannot all be null: loyalty_entry_order_once)', n;
  end if;
end $$;`);

    // 2. Orphans of nullable columns: set to null, counted.
    const orphans: [table: string, column: string, parent: string][] = [
      ['order_refund', 'enrollment_id', 'enrollment'],
      ['loyalty_entry', 'order_id', 'customer_order'],
      ['loyalty_entry', 'refund_id', 'order_refund'],
      ['wallet_holding', 'order_id', 'customer_order'],
      ['wallet_holding', 'product_id', 'product'],
      ['wallet_holding', 'subscription_id', 'subscription'],
      ['wallet_entry', 'order_id', 'customer_order'],
      ['wallet_entry', 'enrollment_id', 'enrollment'],
      ['wallet_entry', 'appointment_id', 'appointment'],
      ['order_activity', 'subscription_id', 'subscription'],
      ['session_cancellation_seat', 'order_id', 'customer_order'],
    ];
    for (const [table, column, parent] of orphans) {
      this.addSql(`do $$
declare n bigint;
begin
  update "${table}" c set "${column}" = null
   where c."${column}" is not null and not exists (select 1 from "${parent}" p where p."id" = c."${column}");
  get diagnostics n = row_count;
  if n > 0 then raise notice 'ledger_foreign_keys: % ${table}.${column} naming no ${parent} set to null', n; end if;
end $$;`);
    }

    // 3. Indexes for the references a deletion or a lookup would scan for.
    this.addSql(`create index "wallet_entry_order_index" on "wallet_entry" ("order_id") where "order_id" is not null;`);
    this.addSql(`create index "wallet_entry_enrollment_index" on "wallet_entry" ("enrollment_id") where "enrollment_id" is not null;`);
    this.addSql(`create index "wallet_entry_appointment_index" on "wallet_entry" ("appointment_id") where "appointment_id" is not null;`);
    this.addSql(`create index "order_refund_enrollment_index" on "order_refund" ("enrollment_id") where "enrollment_id" is not null;`);
    this.addSql(`create index "loyalty_entry_refund_index" on "loyalty_entry" ("refund_id") where "refund_id" is not null;`);
    this.addSql(`create index "wallet_holding_order_index" on "wallet_holding" ("order_id") where "order_id" is not null;`);
    this.addSql(`create index "wallet_holding_product_index" on "wallet_holding" ("product_id") where "product_id" is not null;`);

    // 4. The foreign keys: the cascades replaced, the missing ones added.
    this.addSql(`alter table "order_refund"
      drop constraint "order_refund_order_id_fkey",
      add constraint "order_refund_order_id_fkey" foreign key ("order_id") references "customer_order" ("id") on delete no action,
      add constraint "order_refund_enrollment_id_fkey" foreign key ("enrollment_id") references "enrollment" ("id") on delete set null;`);
    this.addSql(`alter table "order_activity"
      drop constraint "order_activity_order_id_fkey",
      add constraint "order_activity_order_id_fkey" foreign key ("order_id") references "customer_order" ("id") on delete no action,
      add constraint "order_activity_subscription_id_fkey" foreign key ("subscription_id") references "subscription" ("id") on delete no action;`);
    this.addSql(`alter table "loyalty_entry"
      drop constraint "loyalty_entry_student_id_fkey",
      add constraint "loyalty_entry_student_id_fkey" foreign key ("student_id") references "student" ("id") on delete no action,
      add constraint "loyalty_entry_order_id_fkey" foreign key ("order_id") references "customer_order" ("id") on delete no action,
      add constraint "loyalty_entry_refund_id_fkey" foreign key ("refund_id") references "order_refund" ("id") on delete no action;`);
    this.addSql(`alter table "wallet_holding"
      drop constraint "wallet_holding_student_id_fkey",
      add constraint "wallet_holding_student_id_fkey" foreign key ("student_id") references "student" ("id") on delete no action,
      add constraint "wallet_holding_order_id_fkey" foreign key ("order_id") references "customer_order" ("id") on delete no action,
      add constraint "wallet_holding_product_id_fkey" foreign key ("product_id") references "product" ("id") on delete set null,
      add constraint "wallet_holding_subscription_id_fkey" foreign key ("subscription_id") references "subscription" ("id") on delete no action;`);
    this.addSql(`alter table "wallet_entry"
      drop constraint "wallet_entry_student_id_fkey",
      drop constraint "wallet_entry_holding_id_fkey",
      drop constraint "wallet_entry_returns_entry_id_fkey",
      add constraint "wallet_entry_student_id_fkey" foreign key ("student_id") references "student" ("id") on delete no action,
      add constraint "wallet_entry_holding_id_fkey" foreign key ("holding_id") references "wallet_holding" ("id") on delete no action,
      add constraint "wallet_entry_returns_entry_id_fkey" foreign key ("returns_entry_id") references "wallet_entry" ("id") on delete no action,
      add constraint "wallet_entry_order_id_fkey" foreign key ("order_id") references "customer_order" ("id") on delete no action,
      add constraint "wallet_entry_enrollment_id_fkey" foreign key ("enrollment_id") references "enrollment" ("id") on delete set null,
      add constraint "wallet_entry_appointment_id_fkey" foreign key ("appointment_id") references "appointment" ("id") on delete set null;`);
    this.addSql(`alter table "discount_use"
      add constraint "discount_use_order_id_fkey" foreign key ("order_id") references "customer_order" ("id") on delete no action;`);
    this.addSql(`alter table "session_cancellation_seat"
      add constraint "session_cancellation_seat_order_id_fkey" foreign key ("order_id") references "customer_order" ("id") on delete no action;`);
  }

  override async down(): Promise<void> {
    // The orphans set to null stay null: what they named is gone.
    this.addSql(`alter table "session_cancellation_seat" drop constraint "session_cancellation_seat_order_id_fkey";`);
    this.addSql(`alter table "discount_use" drop constraint "discount_use_order_id_fkey";`);
    this.addSql(`alter table "wallet_entry"
      drop constraint "wallet_entry_appointment_id_fkey",
      drop constraint "wallet_entry_enrollment_id_fkey",
      drop constraint "wallet_entry_order_id_fkey",
      drop constraint "wallet_entry_returns_entry_id_fkey",
      drop constraint "wallet_entry_holding_id_fkey",
      drop constraint "wallet_entry_student_id_fkey",
      add constraint "wallet_entry_returns_entry_id_fkey" foreign key ("returns_entry_id") references "wallet_entry" ("id") on delete cascade,
      add constraint "wallet_entry_holding_id_fkey" foreign key ("holding_id") references "wallet_holding" ("id") on delete cascade,
      add constraint "wallet_entry_student_id_fkey" foreign key ("student_id") references "student" ("id") on delete cascade;`);
    this.addSql(`alter table "wallet_holding"
      drop constraint "wallet_holding_subscription_id_fkey",
      drop constraint "wallet_holding_product_id_fkey",
      drop constraint "wallet_holding_order_id_fkey",
      drop constraint "wallet_holding_student_id_fkey",
      add constraint "wallet_holding_student_id_fkey" foreign key ("student_id") references "student" ("id") on delete cascade;`);
    this.addSql(`alter table "loyalty_entry"
      drop constraint "loyalty_entry_refund_id_fkey",
      drop constraint "loyalty_entry_order_id_fkey",
      drop constraint "loyalty_entry_student_id_fkey",
      add constraint "loyalty_entry_student_id_fkey" foreign key ("student_id") references "student" ("id") on delete cascade;`);
    this.addSql(`alter table "order_activity"
      drop constraint "order_activity_subscription_id_fkey",
      drop constraint "order_activity_order_id_fkey",
      add constraint "order_activity_order_id_fkey" foreign key ("order_id") references "customer_order" ("id") on delete cascade;`);
    this.addSql(`alter table "order_refund"
      drop constraint "order_refund_enrollment_id_fkey",
      drop constraint "order_refund_order_id_fkey",
      add constraint "order_refund_order_id_fkey" foreign key ("order_id") references "customer_order" ("id") on delete cascade;`);
    this.addSql(`drop index "wallet_holding_product_index";`);
    this.addSql(`drop index "wallet_holding_order_index";`);
    this.addSql(`drop index "loyalty_entry_refund_index";`);
    this.addSql(`drop index "order_refund_enrollment_index";`);
    this.addSql(`drop index "wallet_entry_appointment_index";`);
    this.addSql(`drop index "wallet_entry_enrollment_index";`);
    this.addSql(`drop index "wallet_entry_order_index";`);
  }
}
