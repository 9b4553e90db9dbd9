import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';

/** The overlay script's stable address (the snippet studios paste into their sites names it). */
export const OVERLAY_SCRIPT_PATH = '/checkout-overlay.js';

/** The built overlay script in the storefront's build folder (storefront/webpack.config.js). */
export const overlayScriptFile = (storefrontDist: string) =>
  join(storefrontDist, 'overlay', 'checkout-overlay.js');

/**
 * GET /checkout-overlay.js (issue 21): the checkout overlay a studio's own site loads with
 * `<script src="{PUBLIC_APP_URL}/checkout-overlay.js" defer></script>`. Its address has no hash, so
 * it is cached for 5 minutes and revalidated by its ETag: a new build reaches every site soon.
 * Any site may load it (Cross-Origin-Resource-Policy cross-origin, security-headers.ts; CORS open
 * for a crossorigin script tag). Read once at start; without the build it answers 503 and returns
 * the file it lacks.
 */
export function mountOverlayScript(app: FastifyInstance, storefrontDist: string): string[] {
  const file = overlayScriptFile(storefrontDist);
  const script = existsSync(file) ? readFileSync(file) : null;
  const etag = script ? `"${createHash('sha256').update(script).digest('base64url').slice(0, 22)}"` : '';
  app.get(OVERLAY_SCRIPT_PATH, (request, reply) => {
    if (!script)
      return reply
        .code(503)
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send('The checkout overlay is not built yet. Run npm run build and restart.');
    void reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.code(200).send(script);
  });
  return script ? [] : [file];
}
