import etag from 'etag';
import type { FastifyInstance } from 'fastify';
import fresh from 'fresh';

/** Express's weak ETag of a body: the etag package, as res.send called it. */
export const weakEtag = (body: string | Buffer): string => etag(body, { weak: true });

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
    const tag = weakEtag(payload);
    void reply.header('ETag', tag);
    const status = reply.statusCode;
    const method = request.raw.method;
    // Express's req.fresh: the fresh package, with this ETag and no Last-Modified.
    if ((method === 'GET' || method === 'HEAD') && ((status >= 200 && status < 300) || status === 304) && fresh(request.headers, { etag: tag })) {
      void reply.code(304).removeHeader('content-type').removeHeader('content-length').removeHeader('transfer-encoding');
      return done(null, '');
    }
    done(null, payload);
  });
}
