import { Migration20261122000000_identity } from './Migration20261122000000_identity';

/** Every committed migration, in order. Listed explicitly so compiled and test runs find the same set. */
export const migrationsList = [
  { name: 'Migration20261122000000_identity', class: Migration20261122000000_identity },
];
