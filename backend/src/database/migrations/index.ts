import type { MigrationObject } from '@mikro-orm/core';

/**
 * Every migration of ours, in order. A migration's class is loaded only when the migrator asks for
 * it: @mikro-orm/migrations (umzug and its command-line helpers) took about 170 ms of every start,
 * and a start on migrated data only compares these names with the migrations table (issue 12: up
 * in under 3 s). A new migration: its file here, and its name at the end of this list.
 */
const NAMES = [
  'Migration20261122000000_identity',
  'Migration20261122010000_catalog',
  'Migration20261122020000_enrollments',
  'Migration20261122100000_sign_in_hardening',
  'Migration20261122110000_course_list',
  'Migration20261122120000_loyalty',
  'Migration20261122130000_discounts',
  'Migration20261122140000_products',
  'Migration20261122150000_order_details',
  'Migration20261122160000_payments',
  'Migration20261122165000_order_activity',
  'Migration20261122170000_seat_holds',
  'Migration20261122180000_refunds',
  'Migration20261122190000_subscriptions',
  'Migration20261122200000_loyalty_ledger',
  'Migration20261122210000_waivers',
  'Migration20261122220000_sync',
  'Migration20261122223000_sync_oauth_state',
  'Migration20261122224000_sync_events',
  'Migration20261122225000_sync_mapping_version',
  'Migration20261122233000_list_indexes',
  'Migration20261123010000_location_online',
  'Migration20261123020000_student_csv_plain',
  'Migration20261123030000_waiver_withdrawn',
  'Migration20261123100000_webhook_lookup_indexes',
  'Migration20261123110000_loyalty_refund_failed',
  'Migration20261123120000_external_refunds',
  'Migration20261125000000_outbox',
  'Migration20261126000000_refund_reconcile',
  'Migration20261127000000_store_slug',
  'Migration20261127010000_store_checkout',
  'Migration20261127020000_order_form_submission',
  'Migration20261127021000_store_products',
  'Migration20261127030000_store_points',
  'Migration20261127040000_waiver_checkout_token',
  'Migration20261127050000_appointments',
  'Migration20261127060000_appointment_admin',
  'Migration20261127070000_reminders',
  'Migration20261127080000_attendance',
  'Migration20261127090000_manage_link',
  'Migration20261127100000_waitlist',
  'Migration20261127110000_session_cancel',
  'Migration20261127120000_appointment_check_in',
  'Migration20261127130000_wallet',
  'Migration20261127140000_wallet_coverage',
  'Migration20261127150000_product_grants',
  'Migration20261127160000_refund_credit',
  'Migration20261127180000_order_wallet',
  'Migration20261128000000_waiver_shared_request',
  'Migration20261201090000_checkout_intent',
  'Migration20261201100000_store_privacy',
  'Migration20261201110000_outside_effects',
  'Migration20261201120000_ledger_foreign_keys',
] as const;

export const migrationsList: MigrationObject[] = NAMES.map((name) => ({
  name,
  get class(): MigrationObject['class'] {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require(`./${name}`) as Record<string, MigrationObject['class']>)[name];
  },
}));
