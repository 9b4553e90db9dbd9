import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../config/config.schema';
import { contentSecurityPolicyHeader, remoteOrigins } from './security-headers';

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
      expect(normalise(template!.replaceAll('${MFE_REMOTE_ORIGINS}', origins))).toBe(contentSecurityPolicyHeader(cfg));
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
      expect({ path: path.trim(), includes: body.includes('include /etc/nginx/snippets/security-headers.conf;') }).toEqual({
        path: path.trim(),
        includes: true,
      });
    }
  });
});
