import { RequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createApp, CreatedApp } from '../src/app.factory';
import { createMigratedDatabase } from '../src/database/test-databases';
import { AppConfig, loadConfig } from '../src/config/config.schema';
import { User, UserRole } from '../src/modules/identity/user.entity';
import { UsersService } from '../src/modules/identity/users.service';
import { Organization } from '../src/modules/organizations/organization.entity';
import { OrganizationsService } from '../src/modules/organizations/organizations.service';
import { takeOutsideCallViolations } from '../src/common/outside-calls';
import { DurableEvents } from '../src/outbox/durable-events';
import { OutboxEvent, OutboxService } from '../src/outbox/outbox.service';
import { Clock } from '../src/common/clock';
import { JOB_QUEUE, JobQueue } from '../src/queue/job-queue';
import { PG_ROOT, pgAdmin } from './support/app-process';

export const TEST_PASSWORD = 'correct horse battery';

/** Server of the test databases (PG_ROOT, TEST_PG_URL): each test file gets a database of its own, dropped at the end. */
const admin = pgAdmin;

export interface TestApp {
  created: CreatedApp;
  config: AppConfig;
  /** The app's clock (common/clock.ts): a test moves it (`advance`) instead of sleeping. */
  clock: Clock;
  http: ReturnType<typeof request>;
  /** Creates an organization with one user of the role and answers a signed-in token. */
  organizationWithUser(role?: UserRole, name?: string): Promise<{ organization: Organization; user: User; token: string }>;
  login(email: string, password?: string): Promise<string>;
  /** Runs a function with a request-scoped entity manager. */
  withEm<T>(fn: (em: EntityManager) => Promise<T>): Promise<T>;
  /**
   * Until what the calls so far announced is carried out: the outbox's open rows are handled (by
   * this process's workers, or here when it runs none). Call it before looking at an effect
   * (points, waiver requests, settled payment links).
   */
  settle(): Promise<void>;
  /**
   * Until nothing more is going to happen now: the outbox drained and, where this process runs the
   * workers, no job due or running (delayed jobs wait for their time). Call it before asserting that
   * something did NOT happen (no second mail), instead of sleeping. A poll with a deadline.
   */
  idle(timeoutMs?: number): Promise<void>;
  /**
   * Announces `event` on `bus` again, as a provider's repeated or late delivery would reach the
   * module (through the outbox, to every subscriber), and settles.
   */
  redeliver<E extends OutboxEvent>(bus: DurableEvents<E>, event: E): Promise<void>;
  close(): Promise<void>;
}

/**
 * The supertest client, waiting after each call (when the call is awaited) until the outbox has
 * carried out what the call announced: points, waiver requests, settled payment links are there when
 * the test looks, as a user sees them a moment later. The outbox's own tests (outbox e2e, the crash
 * test) turn this off to look at the rows before they are handled.
 */
function settlingClient(client: ReturnType<typeof request>, settle: () => Promise<void>): ReturnType<typeof request> {
  const methods = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'head', 'options']);
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof property !== 'string' || !methods.has(property) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const test = (value as (...a: unknown[]) => { then: PromiseLike<unknown>['then'] }).apply(target, args);
        const then = test.then.bind(test);
        test.then = ((onFulfilled, onRejected) =>
          then(
            async (response: unknown) => {
              await settle();
              return response;
            },
            async (error: unknown) => {
              await settle();
              throw error;
            },
          ).then(onFulfilled, onRejected)) as PromiseLike<unknown>['then'];
        return test;
      };
    },
  });
}

/**
 * One app per jest worker (issue 32). `npm run test:e2e` runs the suites in groups
 * (test/groups/run-group.ts): each group is one jest test file that loads many suites in one module
 * registry, and a suite's `startTestApp` is handed an app an earlier suite of the group booted with
 * the same configuration and has closed (its clock set back to the real time), instead of booting
 * one: a boot is seconds, a fresh organization per test (`organizationWithUser`) is milliseconds. A
 * suite run on its own, and `startTestApp(env, { own: true })` (a suite that counts rows across the
 * whole database, or restarts its app), gets an app of its own, closed with the suite. Apps seeded
 * with the demo studio, on the embedded database or pointed at a suite's fake server are never handed on.
 */
interface PooledApp {
  app: TestApp;
  key: string;
  /** The suite that holds it now, or null when it is free to hand on. */
  holder: string | null;
  /** The suite that last held it: it is not handed back to that suite (a restart must be a restart). */
  lastHolder: string | null;
}
const pool: PooledApp[] = [];
let grouped = false;
let currentSuite = '';
/** Free apps kept for the next suites, oldest closed first: each holds a database and a connection pool. */
const MAX_FREE_APPS = 3;

/** Called by the group runner: apps are handed on from suite to suite until `closeSharedApps`. */
export function shareAppsAcrossSuites(): void {
  grouped = true;
}

/** The group runner names the suite about to run (an app is not handed back to the suite that closed it). */
export function enterSuite(name: string): void {
  currentSuite = name;
}

/** The end of a group: every app it kept is closed. */
export async function closeSharedApps(): Promise<void> {
  const apps = pool.splice(0);
  for (const entry of apps) await entry.app.close();
}

export async function startTestApp(
  env: Record<string, string> = {},
  options: {
    settleAfterEachCall?: boolean;
    /** The embedded database (PGlite, in memory) instead of a PostgreSQL database of its own, as `npm start` runs without DATABASE_URL. */
    embedded?: boolean;
    /** An app of this suite's own, never handed on (see above). */
    own?: boolean;
  } = {},
): Promise<TestApp> {
  // An app pointed at a fake server of its suite (a local port) would outlive that server.
  const local = Object.values(env).some((v) => /:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+/.test(v));
  const shareable = grouped && !options.own && !options.embedded && !local && env.SEED_DEMO !== 'true';
  if (!shareable) return bootTestApp(env, options);
  const key = JSON.stringify([Object.entries(env).sort(), options.settleAfterEachCall ?? true]);
  let entry = pool.find((e) => e.key === key && e.holder === null && e.lastHolder !== currentSuite);
  if (entry) {
    entry.app.clock.reset();
  } else {
    entry = { app: await bootTestApp(env, options), key, holder: null, lastHolder: null };
    pool.push(entry);
  }
  entry.holder = currentSuite;
  const held = entry;
  return {
    ...held.app,
    close: async () => {
      if (held.holder === null) return;
      await held.app.settle().catch(() => undefined);
      held.lastHolder = held.holder;
      held.holder = null;
      // The newest free apps are kept; the oldest are closed (least likely to be asked for again).
      pool.splice(pool.indexOf(held), 1);
      pool.push(held);
      const free = pool.filter((e) => e.holder === null);
      for (const old of free.slice(0, Math.max(0, free.length - MAX_FREE_APPS))) {
        pool.splice(pool.indexOf(old), 1);
        await old.app.close();
      }
      throwOutsideCallViolations();
    },
  };
}

/** An outside call made inside a transaction anywhere in the suite fails it (common/outside-calls.ts). */
function throwOutsideCallViolations(): void {
  const violations = takeOutsideCallViolations();
  if (violations.length) throw new Error(`Outside calls inside a database transaction:\n${violations.map((v) => v.stack).join('\n\n')}`);
}

async function bootTestApp(
  env: Record<string, string>,
  options: { settleAfterEachCall?: boolean; embedded?: boolean },
): Promise<TestApp> {
  const suffix = randomBytes(6).toString('hex');
  const dbName = `studio_test_${suffix}`;
  const database: Record<string, string> = { PGLITE_DATA_DIR: `memory://studio_test_${suffix}` };
  // A copy of the migrated template (test-databases.ts): the app finds no migration pending.
  if (!options.embedded) database.DATABASE_URL = await createMigratedDatabase(PG_ROOT, dbName);
  const config = loadConfig({
    ...database,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `test_${suffix}`,
    SEED_DEMO: 'false',
    SERVE_WEB: 'false',
    RUN_WORKER: 'false',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    NODE_ENV: 'test',
    // Many suites share an app (and its client address 127.0.0.1): the per-address limits are set
    // out of reach unless a suite sets them to test them.
    PUBLIC_REQUESTS_PER_MINUTE: '1000000',
    // A cheap argon2id: the suites create and sign in hundreds of users (half a CPU-second each at
    // the standard cost); the sign-in rules do not depend on the cost.
    PASSWORD_HASH_COST: 'low',
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '1000000',
    ...env,
  });
  const created = await createApp(config);
  const settle = () => created.app.get(OutboxService).drain();
  const raw = request(created.app.getHttpServer());
  const http = options.settleAfterEachCall === false ? raw : settlingClient(raw, settle);
  const em = created.app.get(EntityManager);
  const withEm = <T>(fn: (em: EntityManager) => Promise<T>) => RequestContext.create(em, () => fn(em));

  const login = async (email: string, password = TEST_PASSWORD) => {
    const res = await http.post('/api/auth/login').send({ email, password }).expect(200);
    return res.body.token as string;
  };

  return {
    created,
    config,
    clock: created.app.get(Clock),
    http,
    withEm,
    login,
    settle,
    idle: async (timeoutMs = 30_000) => {
      const queue = created.app.get<JobQueue>(JOB_QUEUE);
      const until = Date.now() + timeoutMs;
      // Twice quiet in a row: a job that just ended may have published what the next drain handles.
      for (let quiet = 0; quiet < 2; ) {
        await settle();
        quiet = !queue.runsWorkers || (await queue.busyCount()) === 0 ? quiet + 1 : 0;
        if (Date.now() > until) throw new Error(`The queues did not go idle in ${timeoutMs} ms`);
        if (quiet < 2) await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    redeliver: async (bus, event) => {
      await withEm((em) => bus.publish(em, event));
      await settle();
    },
    organizationWithUser: async (role: UserRole = 'owner', name = `Studio ${randomBytes(3).toString('hex')}`) => {
      const { organization, user } = await withEm(async () => {
        const organization = await created.app.get(OrganizationsService).create({ name });
        const user = await created.app.get(UsersService).create({
          email: `${role}.${randomBytes(4).toString('hex')}@example.test`,
          password: TEST_PASSWORD,
          role,
          organizationId: organization.id,
          firstName: 'Test',
          lastName: role,
        });
        return { organization, user };
      });
      return { organization, user, token: await login(user.email) };
    },
    close: async () => {
      await created.close();
      if (!options.embedded) await admin((c) => c.query(`drop database if exists "${dbName}" with (force)`));
      throwOutsideCallViolations();
    },
  };
}
