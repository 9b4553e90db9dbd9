// `npm start` on embedded defaults: PGlite in a folder, demo seed, data kept across restarts,
// and a wrong setting stops the process with the variable's name.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ROOT, startServer } from '../support/server.mjs';

const dataDir = mkdtempSync(join(tmpdir(), 'studio-pglite-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const embeddedEnv = {
  DATABASE_URL: '',
  PGLITE_DATA_DIR: dataDir,
  MEDIA_DIR: join(dataDir, 'media'),
  REDIS_PREFIX: `embedded_${process.pid}`,
  // As `npm start` runs: not a test app, the standard password cost.
  NODE_ENV: 'development',
  PASSWORD_HASH_COST: 'standard',
};

/**
 * PGlite (PostgreSQL compiled to WebAssembly, one thread) migrating and seeding the demo took over 60 s
 * on a 2-core machine busy with the other CI lanes (stop 32's run); alone it takes about 15 s.
 */
const EMBEDDED_START_MS = 180000;

async function signIn(url, email, password) {
  return fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
}

test('starts on PGlite, seeds the demo, prints the sign-in and keeps the data on restart', async () => {
  const first = await startServer(embeddedEnv, { timeoutMs: EMBEDDED_START_MS });
  let token;
  try {
    assert.match(first.output(), /Demo sign-in: owner@demo\.studio \/ demo-studio \(just seeded\)/);
    assert.match(first.output(), /running at http:\/\/localhost:\d+\/admin/);
    const health = await (await fetch(`${first.url}/api/health`)).json();
    assert.equal(health.database, 'up');
    const login = await signIn(first.url, 'owner@demo.studio', 'demo-studio');
    assert.equal(login.status, 200);
    token = (await login.json()).token;
    const org = await (await fetch(`${first.url}/api/admin/org`, { headers: { token } })).json();
    assert.equal(org.name, 'Demo Studio');
    // The demo looks like a real studio: courses of both types, each with a picture that loads.
    const { activities } = await (
      await fetch(`${first.url}/api/admin/activities`, { headers: { token } })
    ).json();
    assert.ok(activities.length >= 5);
    assert.deepEqual([...new Set(activities.map((a) => a.activity_type))].sort(), [
      'appointment',
      'scheduled',
    ]);
    assert.ok(activities.some((a) => a.listed && a.activity_type === 'scheduled' && a.session_count > 0));
    // Sessions read back from the embedded database keep their wall-clock dates, with seats taken.
    const scheduled = activities.find((a) => a.activity_type === 'scheduled' && a.session_count > 1);
    const sessions = await (
      await fetch(
        `${first.url}/api/admin/activities/${scheduled.activity_id}/sessions?include_past=true&limit=10000`,
        { headers: { token } },
      )
    ).json();
    assert.match(sessions.sessions[0].schedule[0].start_date, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(sessions.sessions.some((s) => s.enrolled > 0));
    const students = await (
      await fetch(`${first.url}/api/admin/student?limit=100`, { headers: { token } })
    ).json();
    assert.ok(students.totalCount >= 30);
    const image = await fetch(`${first.url}${activities[0].image}`);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
  } finally {
    await first.stop();
  }

  const second = await startServer(embeddedEnv, { timeoutMs: EMBEDDED_START_MS });
  try {
    assert.doesNotMatch(second.output(), /just seeded/);
    // The session created before the restart still works: the data lives in the folder.
    const session = await fetch(`${second.url}/api/auth/session`, { headers: { token } });
    assert.equal(session.status, 200);
    assert.equal((await session.json()).organization.name, 'Demo Studio');
  } finally {
    await second.stop();
  }
});

test('a wrong setting stops the start with a message naming the variable', () => {
  const result = spawnSync(process.execPath, [join(ROOT, 'backend/dist/main.js')], {
    env: { ...process.env, PORT: 'not-a-port', DATABASE_URL: 'mysql://nope' },
    encoding: 'utf8',
    timeout: 30000,
  });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /Invalid configuration/);
  assert.match(result.stderr, /PORT: expected a port number/);
  assert.match(result.stderr, /DATABASE_URL: expected a postgres/);
});

test('admin:create makes an organization and its owner that can sign in', async () => {
  const create = spawnSync(
    process.execPath,
    [
      join(ROOT, 'backend/dist/cli/admin-create.js'),
      '--org',
      'Clay Studio',
      '--email',
      'owner@clay.studio',
      '--password',
      'kiln-and-wheel',
    ],
    { env: { ...process.env, ...embeddedEnv }, encoding: 'utf8', timeout: 60000 },
  );
  assert.equal(create.status, 0, create.stderr);
  assert.match(create.stdout, /Created organization "Clay Studio"/);
  const again = spawnSync(
    process.execPath,
    [
      join(ROOT, 'backend/dist/cli/admin-create.js'),
      '--org',
      'Clay Studio',
      '--email',
      'owner@clay.studio',
      '--password',
      'kiln-and-wheel',
    ],
    { env: { ...process.env, ...embeddedEnv }, encoding: 'utf8', timeout: 60000 },
  );
  assert.equal(again.status, 1);
  assert.match(again.stderr, /already exists/);

  const server = await startServer(embeddedEnv, { timeoutMs: EMBEDDED_START_MS });
  try {
    const login = await signIn(server.url, 'owner@clay.studio', 'kiln-and-wheel');
    assert.equal(login.status, 200);
    const org = await (
      await fetch(`${server.url}/api/admin/org`, { headers: { token: (await login.json()).token } })
    ).json();
    assert.equal(org.name, 'Clay Studio');
  } finally {
    await server.stop();
  }
});
