// A fresh PostgreSQL database per test file on the machine's server, dropped afterwards.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './server.mjs';

const PG = ['-h', '127.0.0.1', '-U', 'postgres'];

/**
 * `migrated` (the default): a copy of the migrated template (backend/src/database/test-databases.ts,
 * through the built CLI), so the server starts with nothing to migrate; `migrated: false` an empty
 * database, for the tests of the start's own migration. `demo` (the default for a migrated one):
 * under the browser tests' runner, a copy of the run's seeded demo database (demo-template.mjs), on
 * which a server started with SEED_DEMO finds the demo and seeds nothing; run alone, the migrated copy.
 */
export function createDatabase(prefix = 'studio_e2e', { migrated = true, demo = migrated } = {}) {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const template = demo ? process.env.E2E_DEMO_TEMPLATE : undefined;
  const result = template
    ? spawnSync('createdb', [...PG, '--template', template, name], { encoding: 'utf8' })
    : migrated
      ? spawnSync(process.execPath, [join(ROOT, 'backend/dist/cli/test-database.js'), name], {
          encoding: 'utf8',
        })
      : spawnSync('createdb', [...PG, name], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`creating the database ${name} failed: ${result.stderr}`);
  // A copy keeps the template's settings except per-database ones: commits do not wait for the disk
  // there either (backend/src/database/test-databases.ts, relaxDurability).
  if (template && process.env.TEST_PG_SYNCHRONOUS_COMMIT !== 'on')
    spawnSync(
      'psql',
      [...PG, '-q', '-c', `alter database "${name}" set synchronous_commit = off`, 'postgres'],
      { encoding: 'utf8' },
    );
  return {
    name,
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop() {
      spawnSync('dropdb', [...PG, '--if-exists', '--force', name], { encoding: 'utf8' });
    },
  };
}
