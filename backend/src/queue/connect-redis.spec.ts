import { createServer, connect, type Server } from 'node:net';
import { AddressInfo } from 'node:net';
import { connectRedis } from './queue.module';

/** A port nothing listens on (a server opened and closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** The machine's Redis behind a proxy that lets each connection wait `delayMs` first: a slow Redis. */
async function slowRedis(delayMs: number): Promise<{ url: string; server: Server }> {
  const target = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const server = createServer((client) => {
    client.pause();
    setTimeout(() => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      client.pipe(upstream).pipe(client);
      client.resume();
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    }, delayMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('connectRedis', () => {
  it('auto: nothing listening goes in-process at once, without waiting for the limit', async () => {
    const started = Date.now();
    expect(await connectRedis({ QUEUE_MODE: 'auto', REDIS_URL: `redis://127.0.0.1:${await closedPort()}` }, 10_000)).toBeNull();
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('redis: nothing listening is an error once the wait is over (it may be starting: tried until then)', async () => {
    const started = Date.now();
    await expect(connectRedis({ QUEUE_MODE: 'redis', REDIS_URL: `redis://127.0.0.1:${await closedPort()}` }, 1500)).rejects.toThrow(
      /REDIS_URL: Redis does not answer/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
  });

  it('auto and redis: a Redis slow to answer (3 s) is waited for, not taken for absent', async () => {
    const slow = await slowRedis(3000);
    try {
      for (const mode of ['auto', 'redis'] as const) {
        const redis = await connectRedis({ QUEUE_MODE: mode, REDIS_URL: slow.url }, 10_000);
        expect(redis).not.toBeNull();
        expect(await redis!.ping()).toBe('PONG');
        redis!.disconnect();
      }
    } finally {
      slow.server.close();
    }
  }, 30_000);

  it('in-process: no connection at all', async () => {
    expect(await connectRedis({ QUEUE_MODE: 'in-process', REDIS_URL: 'redis://127.0.0.1:1' })).toBeNull();
  });
});
