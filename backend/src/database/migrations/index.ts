import { Migration20261122000000_identity } from './Migration20261122000000_identity';
import { Migration20261122010000_catalog } from './Migration20261122010000_catalog';
import { Migration20261122020000_enrollments } from './Migration20261122020000_enrollments';
import { Migration20261122100000_sign_in_hardening } from './Migration20261122100000_sign_in_hardening';
import { Migration20261122110000_course_list } from './Migration20261122110000_course_list';
import { Migration20261122120000_loyalty } from './Migration20261122120000_loyalty';
import { Migration20261122130000_discounts } from './Migration20261122130000_discounts';
import { Migration20261122140000_products } from './Migration20261122140000_products';
import { Migration20261122150000_order_details } from './Migration20261122150000_order_details';
import { Migration20261122160000_payments } from './Migration20261122160000_payments';
import { Migration20261122165000_order_activity } from './Migration20261122165000_order_activity';
import { Migration20261122170000_seat_holds } from './Migration20261122170000_seat_holds';
import { Migration20261122180000_refunds } from './Migration20261122180000_refunds';
import { Migration20261122190000_subscriptions } from './Migration20261122190000_subscriptions';
import { Migration20261122200000_loyalty_ledger } from './Migration20261122200000_loyalty_ledger';
import { Migration20261122210000_waivers } from './Migration20261122210000_waivers';
import { Migration20261122220000_sync } from './Migration20261122220000_sync';
import { Migration20261122223000_sync_oauth_state } from './Migration20261122223000_sync_oauth_state';
import { Migration20261122224000_sync_events } from './Migration20261122224000_sync_events';
import { Migration20261122225000_sync_mapping_version } from './Migration20261122225000_sync_mapping_version';
import { Migration20261122233000_list_indexes } from './Migration20261122233000_list_indexes';
import { Migration20261123010000_location_online } from './Migration20261123010000_location_online';

/** Every committed migration, in order. Listed explicitly so compiled and test runs find the same set. */
export const migrationsList = [
  { name: 'Migration20261122000000_identity', class: Migration20261122000000_identity },
  { name: 'Migration20261122010000_catalog', class: Migration20261122010000_catalog },
  { name: 'Migration20261122020000_enrollments', class: Migration20261122020000_enrollments },
  { name: 'Migration20261122100000_sign_in_hardening', class: Migration20261122100000_sign_in_hardening },
  { name: 'Migration20261122110000_course_list', class: Migration20261122110000_course_list },
  { name: 'Migration20261122120000_loyalty', class: Migration20261122120000_loyalty },
  { name: 'Migration20261122130000_discounts', class: Migration20261122130000_discounts },
  { name: 'Migration20261122140000_products', class: Migration20261122140000_products },
  { name: 'Migration20261122150000_order_details', class: Migration20261122150000_order_details },
  { name: 'Migration20261122160000_payments', class: Migration20261122160000_payments },
  { name: 'Migration20261122165000_order_activity', class: Migration20261122165000_order_activity },
  { name: 'Migration20261122170000_seat_holds', class: Migration20261122170000_seat_holds },
  { name: 'Migration20261122180000_refunds', class: Migration20261122180000_refunds },
  { name: 'Migration20261122190000_subscriptions', class: Migration20261122190000_subscriptions },
  { name: 'Migration20261122200000_loyalty_ledger', class: Migration20261122200000_loyalty_ledger },
  { name: 'Migration20261122210000_waivers', class: Migration20261122210000_waivers },
  { name: 'Migration20261122220000_sync', class: Migration20261122220000_sync },
  { name: 'Migration20261122223000_sync_oauth_state', class: Migration20261122223000_sync_oauth_state },
  { name: 'Migration20261122224000_sync_events', class: Migration20261122224000_sync_events },
  { name: 'Migration20261122225000_sync_mapping_version', class: Migration20261122225000_sync_mapping_version },
  { name: 'Migration20261122233000_list_indexes', class: Migration20261122233000_list_indexes },
  { name: 'Migration20261123010000_location_online', class: Migration20261123010000_location_online },
];
