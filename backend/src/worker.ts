import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createAppContext } from './app.factory';
import { ConfigError, loadConfig } from './config/config.schema';

/** The worker process of a multi-machine deployment: runs the queue processors, serves no HTTP. */
async function main() {
  const config = { ...loadConfig(), RUN_WORKER: true, SEED_DEMO: false };
  const { close } = await createAppContext(config);
  new Logger('Worker').log('Worker started');
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void close().then(() => process.exit(0), () => process.exit(1)));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
