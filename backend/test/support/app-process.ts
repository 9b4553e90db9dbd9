import { ChildProcess, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';

/*
 * What the crash tests share (crash.e2e-spec.ts, crash-points.e2e-spec.ts): the built app run as a
 * child process that is killed and started again, a one-attempt HTTP client that tells a lost
 * answer from a refusal, and readers of what the app left behind (mail files, Redis keys).
 */

export const PG_ROOT = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const DIST = path.join(__dirname, '..', '..', 'dist');
const DEBUG = Boolean(process.env.CRASH_DEBUG);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function pgAdmin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: PG_ROOT });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A call that reached no answer (connection refused, reset, or the process died under it). */
export class NoAnswer extends Error {
  constructor(
    message: string,
    /** Refused: the call never reached the server (it was down), so nothing of it happened. */
    readonly refused: boolean,
  ) {
    super(message);
  }
}

export interface Answer {
  status: number;
  body: unknown;
  text: string;
}

/** A client of one base URL: one attempt, no retry. */
export async function call(
  base: string,
  method: string,
  route: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(base + route, {
      method,
      headers: {
        ...(options.token ? { token: options.token } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    text = await res.text();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    throw new NoAnswer(
      `${(error as Error).message}${cause?.code ? ` (${cause.code})` : ''}`,
      cause?.code === 'ECONNREFUSED',
    );
  }
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: res.status, body, text };
}


/** One of the two processes under test: started again after each kill. */
export class Child {
  process: ChildProcess | null = null;
  output = '';
  up: Promise<void> = Promise.resolve();
  constructor(
    readonly name: string,
    private readonly script: string,
    private readonly env: Record<string, string>,
    private readonly ready: (child: Child) => Promise<void>,
  ) {}

  start(): Promise<void> {
    const child = spawn(process.execPath, [this.script], {
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process = child;
    this.output = '';
    const keep = (d: Buffer) => {
      this.output = (this.output + d.toString()).slice(-20_000);
      if (DEBUG) process.stderr.write(`[${this.name}] ${d}`);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.up = this.ready(this);
    return this.up;
  }

  alive(): boolean {
    return !!this.process && this.process.exitCode === null && this.process.signalCode === null;
  }

  /** SIGKILL, and the exit waited for. */
  async kill(): Promise<void> {
    const child = this.process;
    if (!child || !this.alive()) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

/** The .eml files the app wrote (no SMTP_URL): recipient, subject and Message-ID of each. */
export async function readMails(dir: string): Promise<{ to: string; subject: string; messageId: string }[]> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (file) => {
      const text = await readFile(path.join(dir, file), 'utf8');
      const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'mi').exec(text)?.[1]?.trim() ?? '';
      const to = header('To').replace(/^.*<([^>]+)>.*$/, '$1');
      return { to, subject: header('Subject'), messageId: header('Message-ID') };
    }),
  );
}

/** The jobs BullMQ failed for good under this prefix, with the queue, name and reason of each. */
export async function failedJobsIn(
  url: string,
  prefix: string,
): Promise<{ queue: string; name: string; reason: string }[]> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  await redis.connect();
  try {
    const out: { queue: string; name: string; reason: string }[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*:failed`, 'COUNT', '1000');
      cursor = next;
      for (const key of keys) {
        const queueKey = key.slice(0, -':failed'.length);
        for (const id of await redis.zrange(key, '0', '-1')) {
          const [name, reason] = await redis.hmget(`${queueKey}:${id}`, 'name', 'failedReason');
          out.push({
            queue: queueKey.slice(queueKey.lastIndexOf(':') + 1),
            name: name ?? '?',
            reason: (reason ?? '').slice(0, 200),
          });
        }
      }
    } while (cursor !== '0');
    return out;
  } finally {
    redis.disconnect();
  }
}

/** Deletes this run's keys from Redis (its own prefix). */
export async function removeRedisKeys(url: string, prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
