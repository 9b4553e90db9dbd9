import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { migrationsList } from './migrations';

/**
 * Fresh, migrated PostgreSQL databases for the tests (the backend's end-to-end suites and the browser
 * tests), copied from a template instead of migrated one by one: `CREATE DATABASE … TEMPLATE` takes
 * about 0.15 s where running every migration on an empty database took 3 to 5 s, once per test app.
 *
 * The template's name carries a hash of the migrations' names and code, so a new or edited migration
 * makes (once) a new template and an old template is never used for newer code. It is built under an
 * advisory lock (two test processes starting at once build it once), in a database of another name
 * renamed when complete, so a build that died halfway is never taken for a template. The app still
 * checks its migrations at start (`hasPendingMigrations`) and finds none pending.
 *
 * Not used by the application itself: production databases are migrated at start (app.factory).
 */
const TEMPLATE_LOCK_KEY = 727274002;

/** The template's name for the migrations this code carries. */
export function templateName(): string {
  const hash = createHash('sha256');
  for (const migration of migrationsList) hash.update(migration.name).update(String(migration.class)).update('\0');
  return `studio_tpl_${hash.digest('hex').slice(0, 16)}`;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function exists(client: Client, name: string): Promise<boolean> {
  const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
  return (rowCount ?? 0) > 0;
}

/** Runs every migration on `url` with MikroORM alone (no Nest): the template's content. */
async function migrate(url: string): Promise<void> {
  // Loaded only to build a template: a copy of an existing one needs none of the ORM (a quick CLI).
  const [{ MikroORM }, { loadConfig }, { buildOrmOptions }] = await Promise.all([
    import('@mikro-orm/core'),
    import('../config/config.schema'),
    import('./mikro-orm.config'),
  ]);
  const config = loadConfig({ DATABASE_URL: url, SEED_DEMO: 'false', SERVE_WEB: 'false', RUN_WORKER: 'false', LOG_LEVEL: 'silent' });
  const { options } = await buildOrmOptions(config);
  const orm = await MikroORM.init({ ...options, pool: { min: 0, max: 1 } });
  try {
    await orm.getMigrator().up();
  } finally {
    await orm.close(true);
  }
}

/** The current template, built first when missing. `rootUrl` is the server's maintenance database. */
export async function ensureTemplate(rootUrl: string): Promise<string> {
  const name = templateName();
  return withClient(rootUrl, async (client) => {
    if (await exists(client, name)) return name;
    await client.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      if (await exists(client, name)) return name;
      const building = `${name}_building`;
      await client.query(`drop database if exists ${quote(building)} with (force)`);
      await client.query(`create database ${quote(building)}`);
      await relaxDurability(client, building);
      const url = new URL(rootUrl);
      url.pathname = `/${building}`;
      await migrate(url.toString());
      await client.query(`alter database ${quote(building)} rename to ${quote(name)}`);
      return name;
    } finally {
      await client.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]).catch(() => undefined);
    }
  });
}

/**
 * A test database's commits do not wait for the WAL to reach the disk (`synchronous_commit = off`,
 * for every connection to it): an fsync costs 3 to 4 ms on the CI machine, paid by every commit of
 * every test, and more when other processes write. A test never survives a PostgreSQL crash, so
 * nothing it checks depends on that wait; the processes killed by the crash tests are the app's, and
 * what they committed stays committed. Production settings are untouched.
 */
export async function relaxDurability(client: Client, name: string): Promise<void> {
  // TEST_PG_SYNCHRONOUS_COMMIT=on keeps PostgreSQL's default (to compare the two).
  if (process.env.TEST_PG_SYNCHRONOUS_COMMIT === 'on') return;
  await client.query(`alter database ${quote(name)} set synchronous_commit = off`);
}

/** Creates the database `name`, migrated (a copy of the template), and answers its URL. */
export async function createMigratedDatabase(rootUrl: string, name: string): Promise<string> {
  const template = await ensureTemplate(rootUrl);
  await withClient(rootUrl, async (client) => {
    // A copy fails while anyone is connected to the template (nobody should be): tried a few times.
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`create database ${quote(name)} template ${quote(template)}`);
        await relaxDurability(client, name);
        return;
      } catch (error) {
        if (attempt >= 5 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
  });
  const url = new URL(rootUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
