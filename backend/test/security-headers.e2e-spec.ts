import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, TestApp } from './test-app';

const MANIFEST = {
  courses: 'https://cdn.example.com/courses/remoteEntry.js',
  orders: '/mfe/orders/remoteEntry.js',
  students: 'https://students.example.net:8443/remoteEntry.js',
  integrations: 'https://cdn.example.com/integrations/remoteEntry.js',
};

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | undefined): Record<string, string[]> {
  expect(header).toBeDefined();
  return Object.fromEntries(
    header!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name, values]),
  );
}

describe('security headers', () => {
  let t: TestApp;
  let webRoot: string;

  beforeAll(async () => {
    // A built shell of one file is enough to see what the web pages are answered with.
    webRoot = mkdtempSync(join(tmpdir(), 'studio-web-'));
    mkdirSync(join(webRoot, 'shell', 'dist'), { recursive: true });
    writeFileSync(join(webRoot, 'shell', 'dist', 'index.html'), '<!doctype html><title>Studio admin</title><script defer src="/main.js"></script>');
    t = await startTestApp({ SERVE_WEB: 'true', WEB_ROOT: webRoot, MFE_MANIFEST_JSON: JSON.stringify(MANIFEST) });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('answers the admin page with a CSP that allows the remotes of the manifest, and nothing inline but styles', async () => {
    const page = await t.http.get('/admin/courses').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('Studio admin');
    const csp = directives(page.headers['content-security-policy']);
    const remotes = ['https://cdn.example.com', 'https://students.example.net:8443'];
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['script-src']).toEqual(["'self'", ...remotes]);
    expect(csp['connect-src']).toEqual(["'self'", ...remotes]);
    // antd's CSS-in-JS injects <style> elements: inline styles are allowed, inline scripts are not.
    expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'", ...remotes]);
    expect(csp['script-src']).not.toContain("'unsafe-inline'");
    expect(csp['script-src']).not.toContain("'unsafe-eval'");
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-powered-by']).toBeUndefined();
  });

  it('sends the same headers on API answers and the manifest', async () => {
    for (const path of ['/api/health', '/mfe-manifest.json', '/api/auth/session']) {
      const res = await t.http.get(path);
      expect(directives(res.headers['content-security-policy'])['frame-ancestors']).toEqual(["'none'"]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
  });

  it('keeps Swagger UI working: its scripts are files of this origin, its styles inline', async () => {
    const docs = await t.http.get('/api/docs/').expect(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
    const csp = directives(docs.headers['content-security-policy']);
    const scripts = [...docs.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      // Every script is an external file of this origin ('self'), none inline.
      expect(attributes).toMatch(/src=["'](\.\/|\/api\/docs\/)/);
      expect(body.trim()).toBe('');
    }
    expect(csp['style-src']).toContain("'unsafe-inline'");
    for (const [, attributes] of scripts) {
      const src = /src=["']([^"']+)["']/.exec(attributes)![1];
      const file = await t.http.get(new URL(src, 'http://x/api/docs/').pathname).expect(200);
      expect(file.headers['content-type']).toMatch(/javascript/);
    }
  });

  it('lets other sites load public course images (cross-origin resource policy)', async () => {
    const missing = await t.http.get('/api/media/00000000-0000-4000-8000-000000000000/none.png');
    expect(missing.status).toBe(404);
    expect(missing.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });
});
