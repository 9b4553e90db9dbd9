import type { FastifyAdapter } from '@nestjs/platform-fastify';
import { contentSecurityPolicyValue, storeContentSecurityPolicy as buildStorePolicy } from '@studio/contracts';
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
  return policyHeader(contentSecurityPolicy(config));
}

/**
 * The online store's pages (issue 21), which any site may frame: the store's own policy
 * (storeContentSecurityPolicy in @studio/contracts, which the standalone storefront server sends
 * too), framing this app's signing pages and DocuSeal's when configured.
 */
export function storeContentSecurityPolicy(config?: AppConfig): Record<string, string[]> {
  return buildStorePolicy(config ? signingOrigins(config) : []);
}

/**
 * The demo provider's payment pages (/api/pay/demo/…): a store checkout in the overlay goes to them
 * inside the overlay's iframe, so any site may frame them too (frame-ancestors *, no
 * X-Frame-Options). They are plain HTML without script and with one inline <style>, hence the
 * store's policy with inline styles. Stripe Checkout refuses to be framed: with Stripe the
 * checkout opens the payment in the top window (storefront/src/framed.ts).
 */
export function demoPaymentContentSecurityPolicy(): Record<string, string[]> {
  return { ...storeContentSecurityPolicy(), 'style-src': ["'self'", "'unsafe-inline'"] };
}

/**
 * The origins of the waiver signing pages the store's checkout frames: this app's public address
 * (the demo signing page) and DocuSeal's signing pages when it is configured (its API address
 * without a leading api. or a trailing /api, as the adapter derives its sign links).
 */
export function signingOrigins(config: AppConfig): string[] {
  const origins = new Set<string>();
  if (config.PUBLIC_APP_URL) origins.add(new URL(config.PUBLIC_APP_URL).origin);
  if (config.DOCUSEAL_URL && config.DOCUSEAL_API_KEY) {
    const url = new URL(config.DOCUSEAL_URL);
    origins.add(url.origin);
    if (url.host.startsWith('api.')) origins.add(`${url.protocol}//${url.host.slice(4)}`);
  }
  return [...origins].sort();
}

/**
 * The demo provider's waiver signing pages (/api/sign/demo/…): the store's checkout frames them, in
 * the overlay too, so any site may frame them (frame-ancestors *, no X-Frame-Options), as the demo
 * payment pages. One script of this origin (signed.js: it tells the framing checkout the waiver is
 * signed) and one inline <style>.
 */
export const DEMO_SIGNING_PAGES = /^\/api\/sign\/demo\//;

const policyHeader = contentSecurityPolicyValue;

/** The store's policy as one header value. */
export const storeContentSecurityPolicyHeader = (config?: AppConfig) => policyHeader(storeContentSecurityPolicy(config));

/** The store's pages: /s/{slug} and everything under it. */
export const STORE_PAGES = /^\/s\/[^/]/i;

/** The demo provider's payment and receipt pages, which the overlay's iframe may show. */
export const DEMO_PAYMENT_PAGES = /^\/api\/pay\/demo\//;

/**
 * Paths other sites may load (remote bundles, public course images, the checkout overlay's
 * script): cross-origin resource policy.
 */
const SHARED_PATHS = /^\/(mfe\/|api\/media\/|checkout-overlay\.js$)/;

/**
 * helmet on every answer of the API process (API, Swagger UI, the shell and remotes when it serves
 * them): the CSP above, nosniff, Referrer-Policy no-referrer, X-Frame-Options DENY, HSTS, COOP.
 * The store's pages (STORE_PAGES) get the store's policy instead, and no X-Frame-Options; so do
 * the demo provider's payment pages (DEMO_PAYMENT_PAGES) and waiver signing pages
 * (DEMO_SIGNING_PAGES), with inline styles.
 * The headers go on the Node response in the adapter's first request hook, before CORS and the
 * middleware: every answer carries them, a preflight or an early 401 included, as on Express.
 */
export function securityHeaders(
  config: AppConfig,
): (req: IncomingMessage, res: ServerResponse, done: (error?: Error) => void) => void {
  const helmetHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  }) as (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
  const storePolicy = storeContentSecurityPolicyHeader(config);
  const demoPaymentPolicy = policyHeader(demoPaymentContentSecurityPolicy());
  return (req, res, done) =>
    helmetHeaders(req, res, (error?: unknown) => {
      if (error) return done(error as Error);
      const url = req.url ?? '';
      const at = url.indexOf('?');
      const path = at < 0 ? url : url.slice(0, at);
      if (SHARED_PATHS.test(path)) res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      if (STORE_PAGES.test(path)) {
        res.setHeader('Content-Security-Policy', storePolicy);
        res.removeHeader('X-Frame-Options');
      } else if (DEMO_PAYMENT_PAGES.test(path) || DEMO_SIGNING_PAGES.test(path)) {
        res.setHeader('Content-Security-Policy', demoPaymentPolicy);
        res.removeHeader('X-Frame-Options');
      }
      done();
    });
}

/** The headers above in the adapter's first request hook (see securityHeaders). */
export function mountSecurityHeaders(
  adapter: FastifyAdapter,
  headers: ReturnType<typeof securityHeaders>,
): void {
  adapter.setOnRequestHook((request, reply, done) => headers(request.raw, reply.raw, done));
}
