import { BeforeApplicationShutdown, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/config.schema';
import { BullMqJobQueue } from './bullmq-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import { JOB_QUEUE, JobQueue, REDIS_CONNECTION } from './job-queue';

/**
 * Connects to Redis once; null when it does not answer and the mode allows going without. Nothing
 * listening (connection refused, unknown host) is known at once: `auto` goes in-process without
 * waiting. A Redis that is there but slow to answer (a busy machine: the connect's callback waits
 * behind the start's own work) is waited for, 15 s in `auto`, 30 s in `redis` mode: a 2 s limit made
 * a loaded CI machine start without its queue (`auto`) or fail (`redis`).
 */
export async function connectRedis(
  config: Pick<AppConfig, 'QUEUE_MODE' | 'REDIS_URL'>,
  waitMs = config.QUEUE_MODE === 'redis' ? 30_000 : 15_000,
): Promise<Redis | null> {
  if (config.QUEUE_MODE === 'in-process') return null;
  const redis = new Redis(config.REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 10_000,
    maxRetriesPerRequest: null,
    // Until it answers (and later, when the connection drops), tried again every 0.2 to 2 s.
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      (async () => {
        // connect() gives up with the first attempt; the client goes on trying (retryStrategy).
        const ready = new Promise((resolve) => redis.once('ready', resolve));
        redis.connect().catch(() => undefined);
        await ready;
        await redis.ping();
      })(),
      new Promise<never>((_, reject) => {
        // In `auto`, nothing listening means no Redis here: in-process at once.
        redis.on('error', (error: NodeJS.ErrnoException) => {
          if (config.QUEUE_MODE === 'auto' && ABSENT.has(error.code ?? '')) reject(error);
        });
        timer = setTimeout(() => reject(new Error(`timed out after ${waitMs} ms`)), waitMs);
      }),
    ]);
    return redis;
  } catch (error) {
    redis.disconnect();
    if (config.QUEUE_MODE === 'redis') throw new Error(`REDIS_URL: Redis does not answer (${String(error)})`);
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** Errors that say nothing is there to answer (as opposed to slow). */
const ABSENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENOENT', 'EHOSTUNREACH']);

@Global()
@Module({
  providers: [
    {
      provide: REDIS_CONNECTION,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => connectRedis(config),
    },
    {
      provide: JOB_QUEUE,
      inject: [APP_CONFIG, REDIS_CONNECTION],
      useFactory: (config: AppConfig, redis: Redis | null): JobQueue => {
        if (redis) return new BullMqJobQueue(config.REDIS_URL, redis, config.RUN_WORKER, config.REDIS_PREFIX, config.QUEUE_LOCK_MS);
        new Logger('QueueModule').warn(
          `Redis does not answer at ${config.REDIS_URL}: jobs run in this process and are lost on restart`,
        );
        return new InProcessJobQueue(config.RUN_WORKER);
      },
    },
  ],
  exports: [JOB_QUEUE, REDIS_CONNECTION],
})
export class QueueModule implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(REDIS_CONNECTION) private readonly redis: Redis | null,
  ) {}

  /**
   * Before any module shuts down (the database closes in onApplicationShutdown): the workers stop
   * taking jobs and finish the active ones (BullMQ's `worker.close()`), which still write their
   * mappings.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}
