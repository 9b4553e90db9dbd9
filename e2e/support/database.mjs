// A fresh PostgreSQL database per test file on the machine's server, dropped afterwards.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './server.mjs';

const PG = ['-h', '127.0.0.1', '-U', 'postgres'];

/**
 * `migrated` (the default): a copy of the migrated template (backend/src/database/test-databases.ts,
 * through the built CLI), so the server starts with nothing to migrate; `migrated: false` an empty
 * database, for the tests of the start's own migration.
 */
export function createDatabase(prefix = 'studio_e2e', { migrated = true } = {}) {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const result = migrated
    ? spawnSync(process.execPath, [join(ROOT, 'backend/dist/cli/test-database.js'), name], { encoding: 'utf8' })
    : spawnSync('createdb', [...PG, name], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`creating the database ${name} failed: ${result.stderr}`);
  return {
    name,
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop() {
      spawnSync('dropdb', [...PG, '--if-exists', '--force', name], { encoding: 'utf8' });
    },
  };
}
