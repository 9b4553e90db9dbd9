import type { FastifyAdapter } from '@nestjs/platform-fastify';
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppConfig } from '../config/config.schema';
import { remoteManifest } from './static-web';

/**
 * Origins the shell loads remotes from: those of the absolute URLs in the manifest. Same-origin
 * (relative) entries need nothing beyond 'self'.
 */
export function remoteOrigins(config: AppConfig): string[] {
  const origins = new Set<string>();
  for (const { entry } of Object.values(remoteManifest(config))) {
    try {
      const url = new URL(entry);
      if (url.protocol === 'https:' || url.protocol === 'http:') origins.add(url.origin);
    } catch {
      // A relative entry: served by this origin.
    }
  }
  return [...origins].sort();
}

/**
 * The Content-Security-Policy of the admin (the web tier's nginx.conf sends the same one):
 * - scripts only from this origin and the remotes' origins: no inline script, no eval;
 * - styles also 'unsafe-inline': antd's CSS-in-JS injects <style> elements at run time, and its
 *   components and ours set style attributes. A nonce would need the HTML rendered per request
 *   (the shell's index.html is a static file served by nginx or a CDN) and would still not cover
 *   style attributes. Inline style cannot run code; scripts stay strict, which is what stops XSS;
 * - images from this origin (uploads are served under /api/media) plus data:/blob: previews;
 * - frame-ancestors 'none': no site may frame the admin (clickjacking); object and base locked.
 */
export function contentSecurityPolicy(config: AppConfig): Record<string, string[]> {
  const remotes = remoteOrigins(config);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...remotes],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'", ...remotes],
    'img-src': ["'self'", 'data:', 'blob:', ...remotes],
    'font-src': ["'self'", 'data:', ...remotes],
    'connect-src': ["'self'", ...remotes],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/** The policy as one header value. */
export function contentSecurityPolicyHeader(config: AppConfig): string {
  return Object.entries(contentSecurityPolicy(config))
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/** Paths other sites may load (remote bundles, public course images): cross-origin resource policy. */
const SHARED_PATHS = /^\/(mfe\/|api\/media\/)/;

/**
 * helmet on every answer of the API process (API, Swagger UI, the shell and remotes when it serves
 * them): the CSP above, nosniff, Referrer-Policy no-referrer, X-Frame-Options DENY, HSTS, COOP.
 * The headers go on the Node response in the adapter's first request hook, before CORS and the
 * middleware: every answer carries them, a preflight or an early 401 included, as on Express.
 */
export function securityHeaders(config: AppConfig): (req: IncomingMessage, res: ServerResponse, done: (error?: Error) => void) => void {
  const helmetHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  }) as (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
  return (req, res, done) =>
    helmetHeaders(req, res, (error?: unknown) => {
      if (error) return done(error as Error);
      const url = req.url ?? '';
      const at = url.indexOf('?');
      if (SHARED_PATHS.test(at < 0 ? url : url.slice(0, at))) res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      done();
    });
}

/** The headers above in the adapter's first request hook (see securityHeaders). */
export function mountSecurityHeaders(adapter: FastifyAdapter, headers: ReturnType<typeof securityHeaders>): void {
  adapter.setOnRequestHook((request, reply, done) => headers(request.raw, reply.raw, done));
}
