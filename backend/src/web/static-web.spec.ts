import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/config.schema';
import { remoteManifest } from './static-web';

describe('the remotes manifest (/mfe-manifest.json)', () => {
  let root: string;
  const describeRemote = (remote: string, descriptor: object) => {
    mkdirSync(join(root, `mfe-${remote}`, 'dist'), { recursive: true });
    writeFileSync(join(root, `mfe-${remote}`, 'dist', 'mfe.json'), JSON.stringify(descriptor));
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'web-root-'));
    describeRemote('orders', { name: 'mfe_orders', version: '1.4.0', drawers: ['order', 'discount'] });
    describeRemote('students', { name: 'mfe_students', version: '0.3.0', drawers: ['student'] });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("is built from what each remote's build says about itself, same-origin", () => {
    const manifest = remoteManifest(loadConfig({ WEB_ROOT: root }));
    expect(manifest.orders).toEqual({
      entry: '/mfe/orders/remoteEntry.js',
      version: '1.4.0',
      drawers: ['order', 'discount'],
    });
    expect(manifest.students.drawers).toEqual(['student']);
    // No build of courses here (an API image without the web folders): the shell reads its mfe.json.
    expect(manifest.courses).toEqual({ entry: '/mfe/courses/remoteEntry.js' });
    expect(Object.keys(manifest)).toEqual(['courses', 'orders', 'students', 'integrations']);
  });

  it('keeps the default entry of every remote MFE_MANIFEST_JSON does not name', () => {
    const orders = {
      entry: 'https://cdn.example.com/orders/remoteEntry.js',
      version: '2.0.0',
      drawers: ['order', 'refund_report'],
    };
    const manifest = remoteManifest(
      loadConfig({ WEB_ROOT: root, MFE_MANIFEST_JSON: JSON.stringify({ orders }) }),
    );
    expect(manifest.orders).toEqual(orders);
    expect(manifest.students).toEqual({
      entry: '/mfe/students/remoteEntry.js',
      version: '0.3.0',
      drawers: ['student'],
    });
  });

  it('takes the old shape (name -> URL) and leaves the drawers to that build', () => {
    const manifest = remoteManifest(
      loadConfig({
        WEB_ROOT: root,
        MFE_MANIFEST_JSON: JSON.stringify({ orders: 'https://cdn.example.com/remoteEntry.js' }),
      }),
    );
    expect(manifest.orders).toEqual({ entry: 'https://cdn.example.com/remoteEntry.js' });
  });

  it('refuses a manifest entry that is neither shape, naming the remote', () => {
    expect(() =>
      loadConfig({ MFE_MANIFEST_JSON: JSON.stringify({ orders: { drawers: ['order'] } }) }),
    ).toThrow(/MFE_MANIFEST_JSON.*orders/);
    expect(() =>
      loadConfig({
        MFE_MANIFEST_JSON: JSON.stringify({ orders: { entry: '/x.js', drawers: ['Not A Type'] } }),
      }),
    ).toThrow(/MFE_MANIFEST_JSON.*orders\.drawers\.0/);
  });
});
