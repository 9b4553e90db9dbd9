import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';

/**
 * Express's weak ETag of a body (the etag package): W/"<byte length in hex>-<sha1, base64, 27 chars>".
 */
export function weakEtag(body: string | Buffer): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const hash = createHash('sha1').update(bytes).digest('base64').slice(0, 27);
  return `W/"${bytes.length.toString(16)}-${hash}"`;
}

const NO_CACHE = /(?:^|,)\s*?no-cache\s*?(?:,|$)/;

/** Express's req.fresh (the fresh package) for an answer with this ETag and no Last-Modified. */
function isFresh(headers: Record<string, string | string[] | undefined>, etag: string): boolean {
  const modifiedSince = headers['if-modified-since'];
  const noneMatch = headers['if-none-match'];
  if (!modifiedSince && !noneMatch) return false;
  const cacheControl = headers['cache-control'];
  if (typeof cacheControl === 'string' && NO_CACHE.test(cacheControl)) return false;
  if (typeof noneMatch === 'string' && noneMatch !== '*') {
    const matches = noneMatch.split(/\s*,\s*/).map((t) => t.trim());
    if (!matches.some((m) => m === etag || `W/${m}` === etag || m === `W/${etag}`)) return false;
  }
  // No answer here has a Last-Modified: an If-Modified-Since alone never makes it fresh.
  if (modifiedSince) return false;
  return true;
}

/**
 * What Express's res.send added to every body sent whole (JSON, HTML pages, errors, Swagger UI's
 * page): a text body's Content-Type names charset=utf-8, the weak ETag, and a 304 without the body
 * for a GET or HEAD whose If-None-Match names it. Streams (files, exports) are left alone: the
 * static files have send's own ETag.
 */
export function mountSendHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!(typeof payload === 'string' || Buffer.isBuffer(payload))) return done(null, payload);
    if (typeof payload === 'string') {
      const type = reply.getHeader('content-type');
      if (typeof type === 'string' && !/;\s*charset=utf-8\s*$/i.test(type)) {
        void reply.header('content-type', `${type.replace(/;\s*charset=[^;]*/i, '')}; charset=utf-8`);
      }
    }
    if (reply.hasHeader('etag')) return done(null, payload);
    const etag = weakEtag(payload);
    void reply.header('ETag', etag);
    const status = reply.statusCode;
    const method = request.raw.method;
    if ((method === 'GET' || method === 'HEAD') && ((status >= 200 && status < 300) || status === 304) && isFresh(request.headers, etag)) {
      void reply.code(304).removeHeader('content-type').removeHeader('content-length').removeHeader('transfer-encoding');
      return done(null, '');
    }
    done(null, payload);
  });
}
