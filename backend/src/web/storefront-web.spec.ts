import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/config.schema';
import { loadStorefront, storefrontDist } from './storefront-web';

describe("the storefront's build, as the API process finds it", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'web-root-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is looked for under WEB_ROOT, and is missing until both the server render and the client are built', () => {
    const dist = storefrontDist(loadConfig({ WEB_ROOT: root }));
    expect(dist).toBe(join(root, 'storefront', 'dist'));
    expect(loadStorefront(dist)).toBeNull();
    mkdirSync(join(dist, 'client'), { recursive: true });
    writeFileSync(
      join(dist, 'server.js'),
      `exports.pageAssets = (m, prefix) => ({ scripts: m.scripts.map((f) => prefix + f), styles: m.styles.map((f) => prefix + f) });
       exports.routes = []; exports.storeBase = (s) => '/s/' + s; exports.render = () => '<!doctype html>';`,
    );
    expect(loadStorefront(dist)).toBeNull();
    writeFileSync(
      join(dist, 'client', 'manifest.json'),
      JSON.stringify({ scripts: ['client.1a2b.js'], styles: ['styles.3c4d.css'] }),
    );
    expect(loadStorefront(dist)?.assets).toEqual({
      scripts: ['/s-assets/client.1a2b.js'],
      styles: ['/s-assets/styles.3c4d.css'],
    });
  });
});
