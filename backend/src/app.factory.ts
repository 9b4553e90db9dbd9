import { MikroORM, RequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { OperationObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { TOKEN_HEADER } from '@studio/contracts';
import { Logger as PinoLogger } from 'nestjs-pino';
import { cleanupOpenApiDoc } from 'nestjs-zod';
import { AppModule } from './app.module';
import { AppConfig } from './config/config.schema';
import { buildOrmOptions, EmbeddedDatabase } from './database/mikro-orm.config';
import { withMigrationLock } from './database/migration-lock';
import { seedDemo } from './seed/demo-seed';
import { mountRemoteManifest, mountStaticWeb } from './web/static-web';
import { mountBodyParsers } from './web/body-parsers';

export interface CreatedApp {
  app: NestExpressApplication;
  embedded?: EmbeddedDatabase;
  seeded: boolean;
  /** Closes the app, then the embedded database if any. */
  close(): Promise<void>;
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Studio admin API')
      .setDescription('Admin back office: courses, sessions, orders, students and integrations.')
      .setVersion('0.1.0')
      .addApiKey({ type: 'apiKey', in: 'header', name: TOKEN_HEADER }, 'token')
      .build(),
  );
  const cleaned = cleanupOpenApiDoc(document);
  // Every operation that takes input can answer the one validation error shape.
  for (const operations of Object.values(cleaned.paths)) {
    for (const operation of Object.values(operations) as OperationObject[]) {
      if (!operation?.responses || (!operation.requestBody && !operation.parameters?.length)) continue;
      operation.responses['400'] ??= {
        description: 'Validation failed: message and a message per field',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBodyDto' } } },
      };
    }
  }
  return cleaned;
}

/** The modules without HTTP, migrated: for the worker process and the command-line tools. */
export async function createAppContext(config: AppConfig) {
  const { options: ormOptions, embedded } = await buildOrmOptions(config);
  const context = await NestFactory.createApplicationContext(AppModule.forRoot(config, ormOptions), {
    bufferLogs: true,
  });
  try {
    context.useLogger(context.get(PinoLogger));
    const migrator = context.get(MikroORM).getMigrator();
    await withMigrationLock(config, () => migrator.up());
  } catch (error) {
    await context.close();
    await embedded?.close();
    throw error;
  }
  return {
    context,
    close: async () => {
      await context.close();
      await embedded?.close();
    },
  };
}

/** Builds the API (migrated, optionally seeded and serving the web bundles), ready to listen. */
export async function createApp(config: AppConfig, options: { bufferLogs?: boolean } = {}): Promise<CreatedApp> {
  const { options: ormOptions, embedded } = await buildOrmOptions(config);
  let app: NestExpressApplication | undefined;
  try {
    app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, ormOptions), {
      bufferLogs: options.bufferLogs ?? true,
      bodyParser: false,
    });
    app.useLogger(app.get(PinoLogger));
    mountBodyParsers(app.getHttpAdapter().getInstance());
    app.set('trust proxy', 'loopback, linklocal, uniquelocal');
    app.disable('x-powered-by');
    if (config.CORS_ORIGINS) app.enableCors({ origin: config.CORS_ORIGINS.split(','), allowedHeaders: ['content-type', TOKEN_HEADER] });
    app.setGlobalPrefix('api');

    const migrator = app.get(MikroORM).getMigrator();
    const applied = await withMigrationLock(config, () => migrator.up());
    if (applied.length) new Logger('Database').log(`Applied migrations: ${applied.map((m) => m.name).join(', ')}`);
    const seeded = config.SEED_DEMO
      ? await RequestContext.create(app.get(EntityManager), () => seedDemo(app!, config))
      : false;

    SwaggerModule.setup('api/docs', app, buildOpenApiDocument(app), { jsonDocumentUrl: 'api/docs-json' });
    mountRemoteManifest(app.getHttpAdapter().getInstance(), config);
    if (config.SERVE_WEB) {
      const missing = mountStaticWeb(app.getHttpAdapter().getInstance(), config);
      if (missing.length) new Logger('Web').warn(`Not built yet, run npm run build: ${missing.join(', ')}`);
    }
    await app.init();
    const created = app;
    return {
      app: created,
      embedded,
      seeded,
      close: async () => {
        await created.close();
        await embedded?.close();
      },
    };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await embedded?.close().catch(() => undefined);
    throw error;
  }
}
