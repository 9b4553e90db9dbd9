import fastifyStatic from '@fastify/static';
import { RequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpException, HttpStatus, INestApplicationContext, Logger } from '@nestjs/common';
import {
  CHECKOUT_MESSAGES,
  STORE_MESSAGES,
  type PublicBooking,
  type PublicCourse,
  type PublicOrder,
  type PublicProduct,
  type PublicSession,
  type PublicStore,
} from '@studio/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { notFound, type ErrorBody } from '../common/api-error';
import { DomainError } from '../common/domain-error';
import { rateLimiter } from '../common/rate-limiter';
import { isUuid } from '../common/uuid-param.pipe';
import { AppConfig } from '../config/config.schema';
import { StoreCheckoutService } from '../modules/orders/store-checkout.service';
import { StorefrontService } from '../modules/storefront/storefront.service';
import { ManageBookingService } from '../modules/manage-booking/manage-booking.service';
import { REDIS_CONNECTION } from '../queue/job-queue';

/** Where the storefront's client files are served from (hashed names: cached for a year). */
export const STORE_ASSETS_PREFIX = '/s-assets/';

/** What the storefront's reads are, as its pages call them (storefront/src/types.ts StoreApi). */
export interface StoreApi {
  home(slug: string): Promise<PublicStore>;
  course(slug: string, activityId: string): Promise<PublicCourse>;
  checkoutSession(
    slug: string,
    eventId: string,
  ): Promise<{ store_name: string; course: PublicCourse; session: PublicSession }>;
  checkoutProduct(slug: string, productId: string): Promise<{ store_name: string; product: PublicProduct }>;
  order(slug: string, orderId: string, token: string): Promise<PublicOrder>;
  booking(slug: string, token: string): Promise<PublicBooking>;
}

interface StoreRoute {
  name: string;
  path: string;
  load(
    api: StoreApi,
    params: Record<string, string>,
    query: Record<string, string | string[] | undefined>,
  ): Promise<unknown>;
}

interface Assets {
  scripts: string[];
  styles: string[];
}

/** What storefront/dist/server.js exports (storefront/src/server.tsx). */
export interface StorefrontServer {
  routes: StoreRoute[];
  storeBase(slug: string): string;
  pageAssets(manifest: Assets, prefix: string): Assets;
  render(input: {
    page: string;
    data: unknown;
    base: string;
    pageUrl: string;
    origin: string;
    assets: Assets;
  }): string;
}

/** The storefront's build folder: WEB_ROOT, else the repository root. */
export function storefrontDist(config: AppConfig): string {
  return join(config.WEB_ROOT ?? join(__dirname, '..', '..', '..'), 'storefront', 'dist');
}

/** The server render and the client's manifest, if the storefront is built. */
export function loadStorefront(dist: string): { server: StorefrontServer; assets: Assets } | null {
  const serverFile = join(dist, 'server.js');
  const manifestFile = join(dist, 'client', 'manifest.json');
  if (!existsSync(serverFile) || !existsSync(manifestFile)) return null;
  // The build is ours, required once at start; CommonJS with Preact inside.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const server = require(serverFile) as StorefrontServer;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Assets;
  return { server, assets: server.pageAssets(manifest, STORE_ASSETS_PREFIX) };
}

const NOT_BUILT =
  'The online store is not built yet. Run npm run build (or npm run build -w @studio/storefront) and restart.';

/** The reads the pages make, in process (no HTTP hop); a malformed course id is the API's 404. */
function storeApi(
  storefront: StorefrontService,
  checkouts: StoreCheckoutService,
  manage: ManageBookingService,
  em: EntityManager,
): StoreApi {
  const inContext = <T>(read: () => Promise<T>) => RequestContext.create(em, read);
  return {
    home: (slug) => inContext(() => storefront.home(slug)),
    course: (slug, id) =>
      isUuid(id)
        ? inContext(() => storefront.course(slug, id.toLowerCase()))
        : Promise.reject(notFound(STORE_MESSAGES.courseNotFound)),
    checkoutSession: (slug, eventId) =>
      isUuid(eventId)
        ? inContext(() => storefront.checkoutSession(slug, eventId.toLowerCase()))
        : Promise.reject(notFound(CHECKOUT_MESSAGES.sessionNotFound)),
    checkoutProduct: (slug, productId) =>
      isUuid(productId)
        ? inContext(() => storefront.checkoutProduct(slug, productId.toLowerCase()))
        : Promise.reject(notFound(STORE_MESSAGES.productNotFound)),
    order: (slug, orderId, token) =>
      isUuid(orderId)
        ? inContext(async () => {
            const { organization } = await storefront.store(slug);
            return checkouts.order(organization, orderId.toLowerCase(), token);
          })
        : Promise.reject(notFound(CHECKOUT_MESSAGES.orderNotFound)),
    booking: (slug, token) =>
      inContext(async () => {
        const { organization } = await storefront.store(slug);
        return manage.view(organization, token);
      }),
  };
}

/** The API's 404 (a store or course that is not there), with its message; null for anything else. */
function notFoundMessage(error: unknown): string | null {
  if (error instanceof DomainError) return error.status === HttpStatus.NOT_FOUND ? error.message : null;
  if (!(error instanceof HttpException) || error.getStatus() !== HttpStatus.NOT_FOUND) return null;
  const body = error.getResponse() as ErrorBody | string;
  return typeof body === 'string' ? body : body.message;
}

/** The address of this app as links to it should read: PUBLIC_APP_URL, else the request's own. */
function appUrl(config: AppConfig, request: FastifyRequest): string {
  if (config.PUBLIC_APP_URL) return config.PUBLIC_APP_URL.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

/**
 * The online store's pages (issue 21), rendered by this process from the storefront's server build
 * and hydrated by its client files: GET and HEAD of each route of the storefront's route table
 * (/s/:slug, /s/:slug/activity/:id), with the data read in process from StorefrontService and
 * written into the page for hydration. Rate-limited as the Storefront API is (the same limiter and
 * key): each client address has PUBLIC_REQUESTS_PER_MINUTE calls a minute, pages and API calls
 * together when Redis counts them (in memory, each limiter counts its own). A store or
 * course that is not there is the 404 page; our own fault the 500 page. The store's own
 * Content-Security-Policy (any site may frame it) is set in security-headers.ts.
 * Returns the folders it lacks; without the build every page answers 503 with a plain message.
 */
export function mountStorefrontWeb(
  app: FastifyInstance,
  config: AppConfig,
  nest: INestApplicationContext,
): string[] {
  const dist = storefrontDist(config);
  const built = loadStorefront(dist);
  const logger = new Logger('Storefront');
  if (!built) {
    const answer = (_req: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(503)
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(NOT_BUILT);
    for (const path of [
      '/s/:slug',
      '/s/:slug/activity/:id',
      '/s/:slug/checkout',
      '/s/:slug/checkout/complete',
      '/s/:slug/booking/:token',
    ])
      app.get(path, answer);
    return [dist];
  }
  const { server, assets } = built;
  const api = storeApi(nest.get(StorefrontService), nest.get(StoreCheckoutService), nest.get(ManageBookingService), nest.get(EntityManager));
  const limiter: RateLimiterAbstract = rateLimiter(
    config,
    nest.get<Redis | null>(REDIS_CONNECTION),
    // The Storefront API's name: with Redis, a page and an API call spend one budget per address.
    'public_ip',
    config.PUBLIC_REQUESTS_PER_MINUTE,
    60,
  );

  const send = (reply: FastifyReply, status: number, html: string) =>
    reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      // Seats change by the minute: the page is asked for again each time.
      .header('cache-control', 'no-cache')
      .send(html);

  for (const route of server.routes) {
    app.get(route.path, async (request, reply) => {
      try {
        await limiter.consume(request.ip);
      } catch (reason) {
        if (!(reason instanceof RateLimiterRes)) throw reason;
        return reply
          .code(429)
          .header('retry-after', String(Math.max(1, Math.ceil(reason.msBeforeNext / 1000))))
          .header('content-type', 'text/plain; charset=utf-8')
          .send(STORE_MESSAGES.tooManyRequests);
      }
      const params = request.params as Record<string, string>;
      const base = server.storeBase(params.slug);
      const url = appUrl(config, request);
      const pathname = request.url.split('?')[0];
      const page = { base, pageUrl: `${url}${pathname}`, origin: new URL(url).origin, assets };
      let status = 200;
      let name = route.name;
      let data: unknown;
      try {
        data = await route.load(api, params, request.query as Record<string, string | string[] | undefined>);
      } catch (error) {
        const message = notFoundMessage(error);
        if (message === null) {
          logger.error(`${request.method} ${pathname} failed: ${(error as Error)?.stack ?? String(error)}`);
          [status, name, data] = [500, 'error', null];
        } else {
          [status, name, data] = [
            404,
            'not-found',
            { message, storeFound: message !== STORE_MESSAGES.storeNotFound },
          ];
        }
      }
      try {
        return send(reply, status, server.render({ page: name, data, ...page }));
      } catch (error) {
        logger.error(
          `${request.method} ${pathname} could not be rendered: ${(error as Error)?.stack ?? String(error)}`,
        );
        return send(reply, 500, server.render({ page: 'error', data: null, ...page }));
      }
    });
  }

  void app.register(fastifyStatic, {
    root: join(dist, 'client'),
    prefix: STORE_ASSETS_PREFIX,
    decorateReply: false,
    dotfiles: 'ignore',
    // Every file but the manifest has its content's hash in its name.
    allowedPath: (path) => path !== '/manifest.json',
    maxAge: '365d',
    immutable: true,
  });
  return [];
}
