import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../config/config.schema';
import {
  contentSecurityPolicyHeader,
  remoteOrigins,
  storeContentSecurityPolicy,
  storeContentSecurityPolicyHeader,
  STORE_PAGES,
  DEMO_SIGNING_PAGES,
  signingOrigins,
} from './security-headers';

const DEPLOY = join(__dirname, '..', '..', '..', 'deploy');
const normalise = (csp: string) => csp.replace(/\s+/g, ' ').replace(/ ;/g, ';').trim();

describe('Content-Security-Policy', () => {
  const manifest = {
    courses: 'https://cdn.example.com/courses/remoteEntry.js',
    orders: '/mfe/orders/remoteEntry.js',
    students: 'https://students.example.net:8443/remoteEntry.js',
  };
  const config = loadConfig({ MFE_MANIFEST_JSON: JSON.stringify(manifest) });

  it("takes the remotes' origins from the manifest's absolute URLs", () => {
    expect(remoteOrigins(config)).toEqual(['https://cdn.example.com', 'https://students.example.net:8443']);
    expect(remoteOrigins(loadConfig({}))).toEqual([]);
  });

  it('is the one the web tier (nginx.conf) sends, once MFE_REMOTE_ORIGINS is filled in', () => {
    const nginx = readFileSync(join(DEPLOY, 'nginx.conf'), 'utf8');
    const template = /set \$studio_csp "([^"]+)";/.exec(nginx)?.[1];
    expect(template).toBeDefined();
    for (const [origins, cfg] of [
      [remoteOrigins(config).join(' '), config],
      ['', loadConfig({})],
    ] as const) {
      expect(normalise(template!.replaceAll('${MFE_REMOTE_ORIGINS}', origins))).toBe(
        contentSecurityPolicyHeader(cfg),
      );
    }
  });

  it('is sent with nosniff, Referrer-Policy and X-Frame-Options by every static location of nginx.conf', () => {
    const snippet = readFileSync(join(DEPLOY, 'security-headers.conf'), 'utf8');
    for (const header of [
      'Content-Security-Policy $studio_csp',
      'X-Content-Type-Options "nosniff"',
      'Referrer-Policy "no-referrer"',
      'X-Frame-Options "DENY"',
    ]) {
      expect(snippet).toContain(`add_header ${header} always;`);
    }
    const nginx = readFileSync(join(DEPLOY, 'nginx.conf'), 'utf8');
    const locations = [...nginx.matchAll(/location ([^{]+)\{([^}]*)\}/g)];
    for (const [, path, body] of locations) {
      // Proxied locations pass on the API's own headers; the static ones add them.
      if (body.includes('proxy_pass')) continue;
      expect({
        path: path.trim(),
        includes: body.includes('include /etc/nginx/snippets/security-headers.conf;'),
      }).toEqual({
        path: path.trim(),
        includes: true,
      });
    }
  });

  it("lets any site frame the store's pages, with scripts from this origin's files only", () => {
    const store = storeContentSecurityPolicy();
    expect(store['frame-ancestors']).toEqual(['*']);
    expect(store['script-src']).toEqual(["'self'"]);
    expect(storeContentSecurityPolicyHeader()).not.toContain('unsafe-inline');
    // The admin keeps its own.
    expect(contentSecurityPolicyHeader(loadConfig({}))).toContain("frame-ancestors 'none'");
    for (const path of ['/s/demo-studio', '/s/demo-studio/activity/1', '/s/demo-studio/checkout'])
      expect({ path, store: STORE_PAGES.test(path) }).toEqual({ path, store: true });
    for (const path of [
      '/s',
      '/s/',
      '/s-assets/client.js',
      '/sign-in',
      '/admin/s/x',
      '/api/public/demo-studio',
    ])
      expect({ path, store: STORE_PAGES.test(path) }).toEqual({ path, store: false });
  });

  it("has the web tier pass the store's pages and files to the API, with the API's own headers", () => {
    const nginx = readFileSync(join(DEPLOY, 'nginx.conf'), 'utf8');
    for (const path of ['/s/', '/s-assets/']) {
      const body = new RegExp(`location ${path.replace(/[/-]/g, '\\$&')} \\{([^}]*)\\}`).exec(nginx)?.[1];
      expect(body).toContain('proxy_pass http://api;');
      expect(body).not.toContain('security-headers.conf');
    }
  });

  it("lets the store frame the waiver's signing pages, which any site may frame (the checkout in the overlay)", () => {
    expect(DEMO_SIGNING_PAGES.test('/api/sign/demo/dsub_0123456789abcdef0123456789abcdef')).toBe(true);
    expect(DEMO_SIGNING_PAGES.test('/api/admin/submission/remind/1')).toBe(false);
    const docuseal = loadConfig({ PUBLIC_APP_URL: 'https://app.example.com/', DOCUSEAL_URL: 'https://api.docuseal.com', DOCUSEAL_API_KEY: 'docuseal_key_123' });
    expect(signingOrigins(docuseal)).toEqual(['https://api.docuseal.com', 'https://app.example.com', 'https://docuseal.com']);
    expect(storeContentSecurityPolicy(docuseal)['frame-src']).toEqual(["'self'", 'https://api.docuseal.com', 'https://app.example.com', 'https://docuseal.com']);
    expect(storeContentSecurityPolicy()['frame-src']).toEqual(["'self'"]);
  });
});
