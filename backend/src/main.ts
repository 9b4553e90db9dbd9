import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { ConfigError, loadConfig } from './config/config.schema';

/** The API process. With the defaults it also runs the workers and serves the web bundles. */
async function main() {
  const started = Date.now();
  const config = loadConfig();
  const { app, seeded, close } = await createApp(config);
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (closing) return;
      closing = true;
      new Logger('Main').log(`${signal}: closing`);
      close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  await app.listen(config.PORT, '0.0.0.0');
  const url = `http://localhost:${config.PORT}`;
  const lines = [
    `Studio admin is running at ${url}/admin (API docs: ${url}/api/docs) in ${Date.now() - started} ms`,
    `Database: ${config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.PGLITE_DATA_DIR}`}`,
  ];
  if (config.SEED_DEMO) {
    lines.push(`Demo sign-in: ${config.DEMO_EMAIL} / ${config.DEMO_PASSWORD}${seeded ? ' (just seeded)' : ''}`);
  }
  console.log(`\n${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
