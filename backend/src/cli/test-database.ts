import 'reflect-metadata';
import { createMigratedDatabase } from '../database/test-databases';

/**
 * For the browser tests (e2e/support/database.mjs): `node backend/dist/cli/test-database.js <name>
 * [root url]` creates the database `name`, already migrated (a copy of the template, see
 * test-databases.ts), and prints its URL.
 */
async function main() {
  const [name, root = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'] = process.argv.slice(2);
  if (!name || !/^[a-z0-9_]{1,60}$/.test(name)) throw new Error('usage: test-database <name: a-z, 0-9, _> [root url]');
  process.stdout.write(`${await createMigratedDatabase(root, name)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
