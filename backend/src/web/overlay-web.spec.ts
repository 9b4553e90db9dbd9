import Fastify, { FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mountOverlayScript, OVERLAY_SCRIPT_PATH, overlayScriptFile } from './overlay-web';
import { DEMO_PAYMENT_PAGES, demoPaymentContentSecurityPolicy } from './security-headers';

describe('GET /checkout-overlay.js', () => {
  let dist: string;
  let app: FastifyInstance;

  beforeEach(() => {
    dist = mkdtempSync(join(tmpdir(), 'storefront-dist-'));
    app = Fastify();
  });
  afterEach(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves the built script to any site, cached briefly and revalidated by its ETag', async () => {
    mkdirSync(join(dist, 'overlay'));
    writeFileSync(overlayScriptFile(dist), '(()=>{})();');
    expect(mountOverlayScript(app, dist)).toEqual([]);
    const res = await app.inject({ method: 'GET', url: OVERLAY_SCRIPT_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('(()=>{})();');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const again = await app.inject({
      method: 'GET',
      url: OVERLAY_SCRIPT_PATH,
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers 503 without the build, and names the file it lacks', async () => {
    expect(mountOverlayScript(app, dist)).toEqual([overlayScriptFile(dist)]);
    const res = await app.inject({ method: 'GET', url: OVERLAY_SCRIPT_PATH });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
  });
});

describe("the demo payment pages' policy", () => {
  it('lets any site frame them (the overlay pays inside its iframe), inline styles, no inline script', () => {
    const policy = demoPaymentContentSecurityPolicy();
    expect(policy['frame-ancestors']).toEqual(['*']);
    expect(policy['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['form-action']).toEqual(["'self'"]);
    expect(DEMO_PAYMENT_PAGES.test('/api/pay/demo/dcs_1')).toBe(true);
    expect(DEMO_PAYMENT_PAGES.test('/api/payments/x')).toBe(false);
  });
});
