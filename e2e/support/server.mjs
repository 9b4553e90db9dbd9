// Starts the built app (backend/dist/main.js) as `npm start` would, on a free port, and stops it.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Whether nothing listens on the port now. */
function isFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Spawns the server with the given environment and waits until /api/health answers. Under the
 * browser tests' runner the server takes the port the demo database was seeded on (E2E_APP_PORT)
 * when it is free: the demo's stored links (receipts, signing pages) name that origin. A second
 * server started beside it takes any free port.
 */
export async function startServer(env = {}, { timeoutMs = 60000 } = {}) {
  const seeded = Number(process.env.E2E_APP_PORT);
  const port = env.PORT ? Number(env.PORT) : seeded && (await isFree(seeded)) ? seeded : await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'backend/dist/main.js')], {
    cwd: ROOT,
    // Its own Redis namespace unless the test names one: two servers on one Redis (a test run beside
    // another, or a clean-clone CI beside a session's run) would otherwise take each other's queue
    // jobs and settle payments in the wrong database.
    // A test app (NODE_ENV=test: the rule "no outside call inside a transaction" is enforced, as in
    // the backend's suites) with a cheap argon2id (PASSWORD_HASH_COST=low: the demo's users are
    // hashed and signed in at every file's start, half a CPU-second each at the standard cost). A
    // test that stands for `npm start` itself names its own NODE_ENV.
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      REDIS_PREFIX: `e2e_${port}_${process.pid}`,
      NODE_ENV: 'test',
      PASSWORD_HASH_COST: 'low',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let stopping = false;
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  // A server that dies during a test (not stopped by it) says why: its last output, on stderr.
  child.once('exit', (code, signal) => {
    if (!stopping)
      process.stderr.write(
        `\nThe app server on port ${port} exited unexpectedly (${code ?? signal}); its last output:\n${output.slice(-20000)}\n`,
      );
  });
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) {
      stopping = true;
      child.kill('SIGKILL');
      throw new Error(`server did not answer within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    startedInMs: Date.now() - started,
    output: () => output,
    async stop() {
      stopping = true;
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
