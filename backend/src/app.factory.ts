import { MikroORM, RequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { DynamicModule, INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { TOKEN_HEADER } from '@studio/contracts';
import { Logger as PinoLogger } from 'nestjs-pino';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cleanupOpenApiDoc } from 'nestjs-zod';
import { parse as parseQueryString } from 'node:querystring';
import { AppModule } from './app.module';
import { AppConfig } from './config/config.schema';
import { buildOrmOptions, EmbeddedDatabase } from './database/mikro-orm.config';
import { withMigrationLock } from './database/migration-lock';
import { migrationsList } from './database/migrations';
import { seedDemo } from './seed/demo-seed';
import { mountRemoteManifest, mountStaticWeb } from './web/static-web';
import { mountStorefrontWeb, storefrontDist } from './web/storefront-web';
import { mountOverlayScript } from './web/overlay-web';
import { gateQueueDashboard } from './queue/dashboard/queue-dashboard.gate';
import { mountBodyParsers } from './web/body-parsers';
import { clientErrorHandler } from './web/client-errors';
import { mountSendHeaders } from './web/send-headers';
import { mountSecurityHeaders, securityHeaders } from './web/security-headers';
import { markPublicOperations, STOREFRONT_TAG } from './modules/storefront/storefront.controller';
import { installZodResponseSerialization } from './common/zod-response-serialization';
import { ErrorBody } from './common/api-error';
import { BodilessActionGuard } from './common/bodiless-action.guard';
import { documentRequestErrors } from './common/openapi-request-errors';
import { unwatchOutsideCalls, watchOutsideCalls } from './common/outside-calls';

export interface CreatedApp {
  app: NestFastifyApplication;
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
      .setOpenAPIVersion('3.1.0')
      .addServer('/', 'This deployment (every path starts with /api)')
      .addApiKey({ type: 'apiKey', in: 'header', name: TOKEN_HEADER }, 'token')
      .addTag(STOREFRONT_TAG, 'The online store, readable by anyone (no token), for the studio\'s own site too')
      .build(),
  );
  markPublicOperations(document);
  return documentRequestErrors(cleanupOpenApiDoc(document));
}

/**
 * Whether a migration of ours is not recorded as executed yet (the table missing counts as all
 * pending). MikroORM records each migration under its name, with no file extension.
 */
export async function hasPendingMigrations(orm: MikroORM): Promise<boolean> {
  const table = orm.config.get('migrations').tableName ?? 'mikro_orm_migrations';
  let rows: { name: string }[];
  try {
    rows = await orm.em.getConnection().execute<{ name: string }[]>(`select name from "${table}"`);
  } catch {
    return true;
  }
  const done = new Set(rows.map((r) => r.name.replace(/\.[jt]s$/, '')));
  return migrationsList.some((m) => !done.has(m.name));
}

/** The modules without HTTP, migrated: for the worker process and the command-line tools. */
export async function createAppContext(config: AppConfig, extraImports: DynamicModule['imports'] = []) {
  const { options: ormOptions, embedded } = await buildOrmOptions(config);
  const context = await NestFactory.createApplicationContext(AppModule.forRoot(config, ormOptions, extraImports), {
    bufferLogs: true,
  });
  try {
    context.useLogger(context.get(PinoLogger));
    if (config.NODE_ENV === 'test') watchOutsideCalls(context.get(MikroORM).em);
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
      unwatchOutsideCalls(context.get(MikroORM).em);
      await context.close();
      await embedded?.close();
    },
  };
}

/** Builds the API on Fastify (migrated, optionally seeded and serving the web bundles), ready to listen. */
export async function createApp(config: AppConfig, options: { bufferLogs?: boolean } = {}): Promise<CreatedApp> {
  const { options: ormOptions, embedded } = await buildOrmOptions(config);
  let app: NestFastifyApplication | undefined;
  try {
    const headers = securityHeaders(config);
    const adapter = new FastifyAdapter({
      // X-Forwarded-For names the client only when the TCP peer is a configured proxy; otherwise
      // anyone could claim any address and escape the per-address sign-in limit.
      trustProxy: config.TRUSTED_PROXIES.length ? config.TRUSTED_PROXIES : false,
      // Node's own server timeouts, which the Express app ran with (Fastify's defaults would keep an
      // idle connection 72 s and give a request no time limit).
      keepAliveTimeout: 5000,
      requestTimeout: 300000,
      routerOptions: {
        // As Express routed: /api/Admin/x and /api/admin/x/ reach /api/admin/x, and a path
        // parameter of any length reaches its handler (which answers 400 or 404 for a bad one).
        caseSensitive: false,
        ignoreTrailingSlash: true,
        maxParamLength: 16 * 1024,
        // Express 5's "simple" query parser: node:querystring, so filter[email]=x is the key
        // "filter[email]" and a repeated key an array, read by each list's own query parser.
        querystringParser: (query: string) => parseQueryString(query),
      },
      // A URL the router cannot decode (bad percent-encoding) is refused before any hook runs: the
      // one error shape and the security headers, instead of Fastify's own body.
      frameworkErrors: (_error: Error, request: FastifyRequest, reply: FastifyReply) =>
        headers(request.raw, reply.raw, () => {
          const body: ErrorBody = { statusCode: 400, message: 'Bad request' };
          void reply.code(400).send(body);
        }),
      // A request Node's parser refuses (a NUL, CR or LF in a header) never reaches Fastify: its
      // answer is written on the socket, in the one error shape too.
      clientErrorHandler: clientErrorHandler(headers),
    });
    app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, ormOptions), adapter, {
      bufferLogs: options.bufferLogs ?? true,
      bodyParser: false,
      // A module that fails to start throws here with its own error (Nest's default exits the
      // process with code 1 and the cause only in the buffered log, which tests never see).
      abortOnError: false,
    });
    app.useLogger(app.get(PinoLogger));
    // Answers are parsed through their @ZodResponse schema by the handlers themselves (no global interceptor).
    installZodResponseSerialization(app);
    // A body sent to an action that takes none is refused, not ignored (documented by documentRequestErrors).
    app.useGlobalGuards(new BodilessActionGuard());
    const fastify = app.getHttpAdapter().getInstance();
    mountSecurityHeaders(adapter, headers);
    mountBodyParsers(fastify);
    mountSendHeaders(fastify);
    gateQueueDashboard(fastify);
    if (config.CORS_ORIGINS) {
      app.enableCors({
        origin: config.CORS_ORIGINS.split(','),
        // Joined as the cors package under Express joined them (no space), its default methods, and
        // any OPTIONS taken as a preflight.
        allowedHeaders: ['content-type', TOKEN_HEADER].join(','),
        methods: 'GET,HEAD,PUT,PATCH,POST,DELETE',
        strictPreflight: false,
      });
    }
    app.setGlobalPrefix('api');

    // The migrator (umzug) and the lock connection only when the migrations table lacks one of
    // ours: on existing data the start reads one small table instead (issue 12: up in under 3 s).
    const orm = app.get(MikroORM);
    // Test mode: an outside call inside a transaction fails (common/outside-calls.ts).
    if (config.NODE_ENV === 'test') watchOutsideCalls(orm.em);
    const applied = (await hasPendingMigrations(orm))
      ? await withMigrationLock(config, () => orm.getMigrator().up())
      : [];
    if (applied.length) new Logger('Database').log(`Applied migrations: ${applied.map((m) => m.name).join(', ')}`);
    const seeded = config.SEED_DEMO
      ? await RequestContext.create(app.get(EntityManager), () => seedDemo(app!, config))
      : false;

    // Built on the first request for it, not at boot: walking every DTO's schema took about a
    // fifth of the start (issue 12: npm start is up in under 3 s on an existing build).
    const api = app;
    SwaggerModule.setup('api/docs', app, () => buildOpenApiDocument(api), { jsonDocumentUrl: 'api/docs-json' });
    mountRemoteManifest(fastify, config);
    // The online store's pages (/s/...) and files (/s-assets/) are the API process's own (issue 21):
    // served even when the web tier serves the admin (SERVE_WEB=false), which proxies them here.
    const missing = mountStorefrontWeb(fastify, config, app);
    // The checkout overlay's script (/checkout-overlay.js), which studios' own sites load.
    missing.push(...mountOverlayScript(fastify, storefrontDist(config)));
    if (config.SERVE_WEB) missing.push(...mountStaticWeb(fastify, config));
    if (missing.length) new Logger('Web').warn(`Not built yet, run npm run build: ${missing.join(', ')}`);
    await app.init();
    // Every plugin and route registered: the server answers supertest and listen() alike.
    await fastify.ready();
    const created = app;
    return {
      app: created,
      embedded,
      seeded,
      close: async () => {
        unwatchOutsideCalls(orm.em);
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
