/*
 * The medium tier (issue 32): one module's services against a real PostgreSQL database, without
 * Nest and without HTTP. Each file gets a copy of the migrated template (test-databases.ts), a
 * MikroORM over it and a clock it moves; it builds the services it tests with `new` and the rows
 * they need with the fixtures below (real rows: every ledger row's foreign keys hold). The cheap
 * place for a rule's many cases; the end-to-end suites keep one path per journey over HTTP.
 *
 * `npm run test:medium -w @studio/backend` (jest.medium.config.js); part of `npm test`.
 */
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { Clock } from '../../src/common/clock';
import { loadConfig } from '../../src/config/config.schema';
import { buildOrmOptions } from '../../src/database/mikro-orm.config';
import { createMigratedDatabase } from '../../src/database/test-databases';
import { PG_ROOT, pgAdmin } from '../support/app-process';

export interface Medium {
  orm: MikroORM;
  /** The ORM's root entity manager, as Nest injects it into a service. */
  em: EntityManager;
  /** A clock tests move (`advance`) instead of sleeping. */
  clock: Clock;
  /** Runs `fn` in a request context of its own, as a request or a job would. */
  run<T>(fn: (em: EntityManager) => Promise<T>): Promise<T>;
  /** A plain SQL read. */
  sql<T extends object[]>(query: string, params?: unknown[]): Promise<T>;
  close(): Promise<void>;
}

export async function mediumDatabase(): Promise<Medium> {
  const name = `studio_medium_${randomBytes(6).toString('hex')}`;
  const url = await createMigratedDatabase(PG_ROOT, name);
  const config = loadConfig({ DATABASE_URL: url, SEED_DEMO: 'false', SERVE_WEB: 'false', RUN_WORKER: 'false', LOG_LEVEL: 'silent', NODE_ENV: 'test' });
  const { options } = await buildOrmOptions(config);
  const orm = await MikroORM.init({ ...options, pool: { min: 0, max: 10 } });
  const em = orm.em as EntityManager;
  const run = <T>(fn: (em: EntityManager) => Promise<T>) => RequestContext.create(em, () => fn(em.fork() as EntityManager));
  return {
    orm,
    em,
    clock: new Clock(true),
    run,
    sql: (query, params = []) => run((e) => e.getConnection().execute(query, params)),
    close: async () => {
      await orm.close(true);
      await pgAdmin((c) => c.query(`drop database if exists "${name}" with (force)`));
    },
  };
}
