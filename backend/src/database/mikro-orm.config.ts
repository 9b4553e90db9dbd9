import { Options } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { mkdirSync } from 'node:fs';
import { AppConfig } from '../config/config.schema';
import { entities } from './entities';
import { migrationsList } from './migrations';

/** A running embedded database, closed by whoever opened it. */
export interface EmbeddedDatabase {
  close(): Promise<void>;
}

/**
 * Real PostgreSQL when DATABASE_URL is set; otherwise PGlite in this process with its data in a
 * folder, so `npm start` needs nothing installed and keeps its data between runs.
 */
export async function buildOrmOptions(
  config: AppConfig,
): Promise<{ options: Options; embedded?: EmbeddedDatabase }> {
  const common: Options = {
    entities,
    forceUtcTimezone: true,
    // No Migrator extension registered: MikroORM loads @mikro-orm/migrations on the first getMigrator().
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    allowGlobalContext: false,
    debug: false,
  };
  if (config.DATABASE_URL) {
    return {
      options: {
        ...common,
        driver: PostgreSqlDriver,
        clientUrl: config.DATABASE_URL,
        pool: { min: 0, max: config.DATABASE_POOL_MAX },
      },
    };
  }
  // Loaded only in embedded mode: PGlite's WebAssembly build is large and real deployments never need it.
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGliteDriver } = await import('mikro-orm-pglite');
  if (!config.PGLITE_DATA_DIR.startsWith('memory://')) mkdirSync(config.PGLITE_DATA_DIR, { recursive: true });
  // pg_trgm backs the student search index, as on a real server; btree_gist the appointments'
  // exclusion constraint (no two overlapping appointments of one instructor), enforced here too.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { btree_gist } = await import('@electric-sql/pglite/contrib/btree_gist');
  // Dates stay "yyyy-MM-dd" text, as node-postgres gives them: a wall-clock date is not an instant.
  const DATE_OID = 1082;
  const pglite = new PGlite(config.PGLITE_DATA_DIR, {
    extensions: { pg_trgm, btree_gist },
    parsers: { [DATE_OID]: (value: string) => value },
  });
  await pglite.waitReady;
  return {
    options: {
      ...common,
      driver: PGliteDriver,
      dbName: 'postgres',
      driverOptions: { connection: { pglite: () => pglite } },
    } as Options,
    embedded: { close: () => pglite.close() },
  };
}
