// The one setup of a browser test file (issue 32: it was copied into 34 files): a copy of the run's
// seeded demo database, the built app serving it as `npm start` would (the demo owner below), the
// file's own browser context (on its group's one Chromium under the runner), and, when asked, a
// folder the app writes its mails to. Everything is stopped and removed when the file ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { launchBrowser } from './browser.mjs';
import { createDatabase } from './database.mjs';
import { startServer } from './server.mjs';

/** The demo's owner (DEMO_EMAIL / DEMO_PASSWORD of the server every file starts). */
export const OWNER = { email: 'owner@demo.studio', password: 'demo-studio' };

/**
 * @typedef {object} DemoStudio
 * @property {string} url the app's origin
 * @property {Awaited<ReturnType<typeof startServer>>} server
 * @property {Awaited<ReturnType<typeof launchBrowser>>} browser
 * @property {ReturnType<typeof createDatabase>} database
 * @property {string | undefined} outbox the folder of the app's .eml files (`outbox: true`)
 * @property {Promise<void>} ready settles when the setup is done (or failed)
 */

/**
 * Registers the file's before and after hooks and answers the studio they fill (its fields are set
 * once the first hook has run). Options:
 * - `env`: more of the server's environment, or an async function answering it (run first: a fake
 *   provider the server must name is started there);
 * - `outbox`: mails written to a fresh folder (`studio.outbox`) instead of the default one;
 * - `browser`: more of the browser context's options (e.g. `{ timezoneId }`);
 * - `stop`: an async function run after the server stopped (close what `env` started).
 * Node 20 runs a file's top-level `before` hooks side by side, not one after the other: a file's own
 * `before` starts with `await studio.ready`.
 * @returns {DemoStudio}
 */
export function useDemoStudio({ env = {}, outbox = false, browser, stop } = {}) {
  let settle;
  const studio = /** @type {DemoStudio} */ ({
    ready: new Promise((resolve, reject) => (settle = { resolve, reject })),
  });
  // A failed setup fails this hook; a file's hook awaiting `ready` fails with the same error.
  studio.ready.catch(() => undefined);
  before(() => setUp().then(settle.resolve, (error) => (settle.reject(error), Promise.reject(error))));
  async function setUp() {
    const extra = typeof env === 'function' ? await env() : env;
    if (outbox) studio.outbox = mkdtempSync(join(tmpdir(), 'studio-outbox-'));
    studio.database = createDatabase();
    studio.server = await startServer({
      DATABASE_URL: studio.database.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      SEED_DEMO: 'true',
      DEMO_EMAIL: OWNER.email,
      DEMO_PASSWORD: OWNER.password,
      ...(studio.outbox ? { MAIL_OUTBOX_DIR: studio.outbox } : {}),
      ...extra,
    });
    studio.url = studio.server.url;
    studio.browser = await launchBrowser(browser);
  }
  after(async () => {
    await studio.browser?.close();
    await studio.server?.stop();
    studio.database?.drop();
    await stop?.();
    if (studio.outbox) rmSync(studio.outbox, { recursive: true, force: true });
  });
  return studio;
}

/** The owner's API token, signed in through POST /api/auth/login. */
export async function ownerToken(url, owner = OWNER) {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(owner),
  });
  if (!res.ok) throw new Error(`signing in ${owner.email} answered ${res.status}`);
  return (await res.json()).token;
}
