import 'reflect-metadata';
import { DynamicModule, Logger } from '@nestjs/common';
import { createAppContext } from './app.factory';
import { ConfigError, loadConfig } from './config/config.schema';

/**
 * The worker process of a multi-machine deployment: runs the queue processors, serves no HTTP. Any
 * number can run against the same Redis. On SIGTERM (or SIGINT) it stops taking jobs and lets the
 * active ones finish (`worker.close()`, in QueueModule) before it exits; a job of a worker that is
 * killed outright is put back by BullMQ's stalled check and run again by another worker.
 */
export async function startWorker(extraImports: DynamicModule['imports'] = []): Promise<void> {
  const config = { ...loadConfig(), RUN_WORKER: true, SEED_DEMO: false };
  const logger = new Logger('Worker');
  // Listening before the app starts: its workers take jobs before the start-up has returned.
  const app = createAppContext(config, extraImports);
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      logger.log(`${signal}: finishing the active jobs`);
      void app.then(({ close }) => close()).then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  await app;
  logger.log('Worker started');
}

if (require.main === module) {
  startWorker().catch((error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
}
