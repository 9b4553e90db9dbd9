import { Client } from 'pg';
import { AppConfig } from '../config/config.schema';

const MIGRATION_LOCK_KEY = 727274001;

/**
 * Several API replicas may start at once: the first takes a PostgreSQL advisory lock and migrates,
 * the others wait and then find nothing left to apply. The embedded database has one process only.
 */
export async function withMigrationLock<T>(config: AppConfig, fn: () => Promise<T>): Promise<T> {
  if (!config.DATABASE_URL) return fn();
  const client = new Client({ connectionString: config.DATABASE_URL });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await fn();
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}
