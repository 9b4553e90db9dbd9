/**
 * The online store's Content-Security-Policy (issue 21), in one place for both hosts of its pages:
 * the API process (backend/src/web/security-headers.ts) and the standalone storefront server
 * (storefront/src/standalone.ts). Any site may frame the store (a studio's own site opens it in
 * the checkout overlay), so it has a policy of its own instead of the admin's:
 * - frame-ancestors * (and no X-Frame-Options): the store's pages may be framed by any origin;
 * - frame-src: this origin and the waiver signing pages' origins the checkout frames (`frameOrigins`:
 *   the demo signing page's and DocuSeal's);
 * - scripts only from this origin's files: the page's data is a <script type="application/json">
 *   and its JSON-LD a <script type="application/ld+json">, neither of which runs;
 * - styles from its one stylesheet (no CSS-in-JS here, so no 'unsafe-inline'); images from this
 *   origin (uploads under /api/media) and data: URLs.
 */
export function storeContentSecurityPolicy(frameOrigins: readonly string[] = []): Record<string, string[]> {
  return {
    'frame-src': ["'self'", ...frameOrigins],
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ['*'],
  };
}

/** A policy as one header value: `name value value; name value`. */
export const contentSecurityPolicyValue = (policy: Record<string, string[]>): string =>
  Object.entries(policy)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
