import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument, createApp } from '../app.factory';
import { loadConfig } from '../config/config.schema';

/** Writes the OpenAPI document (the source of libs/contracts' generated types) to the given file. */
async function main() {
  const out = process.argv[2];
  if (!out) throw new Error('usage: openapi <output.json>');
  const config = {
    ...loadConfig({ PGLITE_DATA_DIR: 'memory://openapi' }),
    SEED_DEMO: false,
    SERVE_WEB: false,
    RUN_WORKER: false,
    QUEUE_MODE: 'in-process' as const,
    LOG_LEVEL: 'silent' as const,
  };
  const { app, close } = await createApp(config);
  try {
    writeFileSync(out, JSON.stringify(buildOpenApiDocument(app), null, 2) + '\n');
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
