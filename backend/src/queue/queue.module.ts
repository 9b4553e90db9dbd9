import { BeforeApplicationShutdown, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/config.schema';
import { BullMqJobQueue } from './bullmq-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import { JOB_QUEUE, JobQueue, REDIS_CONNECTION } from './job-queue';

/** Connects to Redis once; null when it does not answer and the mode allows going without. */
async function connectRedis(config: AppConfig): Promise<Redis | null> {
  if (config.QUEUE_MODE === 'in-process') return null;
  const redis = new Redis(config.REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1500,
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  try {
    await Promise.race([
      redis.connect(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 2000)),
    ]);
    await redis.ping();
    return redis;
  } catch (error) {
    redis.disconnect();
    if (config.QUEUE_MODE === 'redis') throw new Error(`REDIS_URL: Redis does not answer (${String(error)})`);
    return null;
  }
}

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
