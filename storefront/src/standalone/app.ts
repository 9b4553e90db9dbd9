import {
  contentSecurityPolicyValue,
  storeContentSecurityPolicy,
} from '@studio/contracts/src/storefront/store-csp';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { parse as parseQuery } from 'node:querystring';
import { pipeline } from 'node:stream';
import { storeBase } from '../links';
import { routes } from '../routes';
import { pageAssets, render, type ClientManifest } from '../server';
import { failedPage, httpStoreApi } from './http-store-api';
import { matchRoute } from './match-route';
import { apiProxy, DOT_SEGMENT, forwardedHeaders, PROXIED_PATHS } from './proxy';

/** Where the client files are served from, as in the API process (storefront-web.ts). */
export const ASSETS_PREFIX = '/s-assets/';

export interface StandaloneConfig {
  port: number;
  /** The API's origin: the Storefront API the pages read, and where the proxied paths go. */
  apiUrl: string;
  /** The store's public origin (links, og:url); null: the request's own. */
  publicUrl: string | null;
  /** Origins of the waiver signing pages the checkout frames, besides this one (DocuSeal's). */
  frameOrigins: string[];
  /** The storefront's build folder (server.js's and this file's folder, with client/). */
  dist: string;
}

const httpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
};

/** The configuration from the environment, or what is wrong with it. */
export function readConfig(env: NodeJS.ProcessEnv, dist: string): StandaloneConfig | { error: string } {
  const apiUrl = env.STORE_API_URL?.trim();
  if (!apiUrl)
    return {
      error:
        "STORE_API_URL is required: the API's origin (e.g. http://api:3000), whose Storefront API the store reads and to which it passes /api/public/, /api/media/, /api/pay/demo/, /api/sign/demo/ and /checkout-overlay.js.",
    };
  if (!httpUrl(apiUrl)) return { error: `STORE_API_URL must be an http or https URL, not ${apiUrl}` };
  const publicUrl = env.PUBLIC_STORE_URL?.trim() || null;
  if (publicUrl && !httpUrl(publicUrl))
    return { error: `PUBLIC_STORE_URL must be an http or https URL, not ${publicUrl}` };
  const port = Number(env.PORT?.trim() || 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return { error: `PORT must be a port number, not ${env.PORT}` };
  const frameOrigins = (env.STORE_FRAME_ORIGINS ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((origin) => httpUrl(origin)?.origin ?? '');
  if (frameOrigins.includes(''))
    return { error: `STORE_FRAME_ORIGINS must be http or https origins, not ${env.STORE_FRAME_ORIGINS}` };
  return {
    port,
    apiUrl: apiUrl.replace(/\/+$/, ''),
    publicUrl: publicUrl && new URL(publicUrl).origin,
    frameOrigins,
    dist,
  };
}

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
  json: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  woff2: 'font/woff2',
  woff: 'font/woff',
  txt: 'text/plain; charset=utf-8',
};

/** A client file's name: one plain name in dist/client, never the manifest (it is not served). */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * The standalone storefront server's request handler: the store's pages (GET and HEAD of each row
 * of routes.ts, rendered as the API process renders them, with the data read from the Storefront
 * API over HTTP), its client files under /s-assets/ (cached a year, immutable; not manifest.json),
 * and the API paths the pages call (PROXIED_PATHS) passed to the API. Anything else is 404.
 */
export function storefrontApp(
  config: StandaloneConfig,
): (request: IncomingMessage, response: ServerResponse) => void {
  const client = join(config.dist, 'client');
  const manifest = JSON.parse(readFileSync(join(client, 'manifest.json'), 'utf8')) as ClientManifest;
  const assets = pageAssets(manifest, ASSETS_PREFIX);
  const policy = contentSecurityPolicyValue(storeContentSecurityPolicy(config.frameOrigins));
  const proxy = apiProxy(config.apiUrl);

  const plain = (
    response: ServerResponse,
    status: number,
    text: string,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...headers,
    });
    response.end(text);
  };

  const html = (request: IncomingMessage, response: ServerResponse, status: number, body: string) => {
    const bytes = Buffer.from(body, 'utf8');
    response.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      // Seats change by the minute: the page is asked for again each time.
      'cache-control': 'no-cache',
      'content-length': String(bytes.length),
      'content-security-policy': policy,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    response.end(request.method === 'HEAD' ? undefined : bytes);
  };

  const asset = (request: IncomingMessage, response: ServerResponse, name: string) => {
    const file = join(client, name);
    let size: number;
    try {
      const stat = ASSET_NAME.test(name) && name !== 'manifest.json' ? statSync(file) : null;
      if (!stat?.isFile()) return plain(response, 404, 'Not found');
      size = stat.size;
    } catch {
      return plain(response, 404, 'Not found');
    }
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream',
      'content-length': String(size),
      // Every file but the manifest has its content's hash in its name.
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    });
    if (request.method === 'HEAD') return response.end();
    pipeline(createReadStream(file), response, () => undefined);
  };

  const page = async (
    request: IncomingMessage,
    response: ServerResponse,
    pathname: string,
    search: string,
  ) => {
    const match = matchRoute(routes, pathname);
    if (!match) return plain(response, 404, 'Not found');
    const { route, params } = match;
    const forwarded = forwardedHeaders(request);
    const origin =
      config.publicUrl ??
      `${forwarded['x-forwarded-proto']}://${forwarded['x-forwarded-host'] ?? 'localhost'}`;
    const context = {
      base: storeBase(params.slug),
      pageUrl: `${origin}${pathname}`,
      origin,
      assets,
    };
    // The client's address goes with the reads: the API counts its rate limit per client.
    const api = httpStoreApi({
      apiUrl: config.apiUrl,
      headers: { 'x-forwarded-for': forwarded['x-forwarded-for'] },
    });
    let status = 200;
    let name = route.name;
    let data: unknown;
    try {
      data = await route.load(api, params, parseQuery(search));
    } catch (error) {
      const failed = failedPage(error);
      if (failed.status === 429)
        return plain(response, 429, failed.message, { 'retry-after': failed.retryAfter });
      if (failed.status === 500)
        console.error(`${request.method} ${pathname} failed: ${(error as Error)?.stack ?? String(error)}`);
      [status, name, data] = [failed.status, failed.page, failed.data];
    }
    try {
      return html(request, response, status, render({ page: name, data, ...context }));
    } catch (error) {
      console.error(
        `${request.method} ${pathname} could not be rendered: ${(error as Error)?.stack ?? String(error)}`,
      );
      return html(request, response, 500, render({ page: 'error', data: null, ...context }));
    }
  };

  return (request, response) => {
    const url = request.url ?? '/';
    const at = url.indexOf('?');
    const pathname = at < 0 ? url : url.slice(0, at);
    const search = at < 0 ? '' : url.slice(at + 1);
    if (!pathname.startsWith('/') || DOT_SEGMENT.test(pathname)) return plain(response, 400, 'Bad request');
    if (PROXIED_PATHS.test(url)) return proxy(request, response);
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return plain(response, 405, 'Method not allowed', { allow: 'GET, HEAD' });
    if (pathname.startsWith(ASSETS_PREFIX))
      return asset(request, response, pathname.slice(ASSETS_PREFIX.length));
    // The store has no icon: browsers that ask anyway are told so, without an error in the console.
    if (pathname === '/favicon.ico') {
      response.writeHead(204, { 'cache-control': 'public, max-age=86400' });
      return response.end();
    }
    page(request, response, pathname, search).catch((error: unknown) => {
      console.error(`${request.method} ${pathname} failed: ${(error as Error)?.stack ?? String(error)}`);
      if (!response.headersSent) plain(response, 500, 'Something went wrong');
      else response.destroy();
    });
  };
}
