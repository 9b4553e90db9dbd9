import {
  manifestPages,
  menuPages,
  mergeMfeManifests,
  mfeDescriptorUrl,
  parseMfeManifest,
  remoteForDrawer,
} from './mfe-manifest';

describe('the shell/remote manifest', () => {
  const manifest = parseMfeManifest({
    courses: { entry: '/mfe/courses/remoteEntry.js', version: '0.1.0', drawers: ['course_builder', 'share'] },
    orders: {
      entry: 'https://cdn.example.com/orders/remoteEntry.js',
      version: '0.2.0',
      drawers: ['order', 'refund_report'],
    },
  });

  it('routes a drawer type to the remote that lists it', () => {
    expect(remoteForDrawer(manifest, 'share')).toBe('courses');
    expect(remoteForDrawer(manifest, 'order')).toBe('orders');
    // A type no compiled table knows, listed by one remote's entry.
    expect(remoteForDrawer(manifest, 'refund_report')).toBe('orders');
  });

  it('routes an unknown type nowhere', () => {
    expect(remoteForDrawer(manifest, 'student')).toBeNull();
    expect(remoteForDrawer(manifest, 'toString')).toBeNull();
  });

  it('reads the old shape (name -> URL) as an entry without drawers', () => {
    expect(parseMfeManifest({ orders: '/mfe/orders/remoteEntry.js' })).toEqual({
      orders: { entry: '/mfe/orders/remoteEntry.js' },
    });
  });

  it('lays a partial manifest over the defaults remote by remote', () => {
    const merged = mergeMfeManifests(
      manifest,
      parseMfeManifest({ orders: { entry: 'https://b.example/re.js', drawers: ['order'] } }),
    );
    expect(merged.courses).toEqual(manifest.courses);
    expect(merged.orders).toEqual({ entry: 'https://b.example/re.js', drawers: ['order'] });
    expect(remoteForDrawer(merged, 'refund_report')).toBeNull();
  });

  it('says which remote and field is wrong', () => {
    expect(() => parseMfeManifest({ orders: { version: '1' } })).toThrow(/at orders\.entry/);
    expect(() => parseMfeManifest({ Orders: '/x.js' })).toThrow(/Orders/);
    expect(() => parseMfeManifest(['/x.js'])).toThrow(/Invalid MFE manifest/);
  });

  it("finds a remote's mfe.json beside its entry", () => {
    expect(mfeDescriptorUrl('/mfe/orders/remoteEntry.js', 'http://admin.example')).toBe(
      'http://admin.example/mfe/orders/mfe.json',
    );
    expect(mfeDescriptorUrl('https://cdn.example.com/o/v2/remoteEntry.js', 'http://admin.example')).toBe(
      'https://cdn.example.com/o/v2/mfe.json',
    );
  });

  describe('pages', () => {
    const withPages = parseMfeManifest({
      courses: {
        entry: '/mfe/courses/remoteEntry.js',
        drawers: [],
        pages: [
          { path: '/admin/courses', label: 'Courses', menu: 10 },
          { path: '/admin/courses/:activityId' },
          { path: '/admin/settings/locations', label: 'Locations', menu: 90 },
        ],
      },
      orders: {
        entry: '/mfe/orders/remoteEntry.js',
        drawers: [],
        pages: [
          { path: '/admin/orders', label: 'Orders', menu: 20 },
          { path: '/admin/courses', label: 'Not mine' },
          { path: '/admin/reports', label: 'Reports' },
        ],
      },
    });

    it('routes each path to the first remote that brings it', () => {
      const routed = manifestPages(withPages);
      expect(routed.map((page) => `${page.remote} ${page.path}`)).toEqual([
        'courses /admin/courses',
        'courses /admin/courses/:activityId',
        'courses /admin/settings/locations',
        'orders /admin/orders',
        'orders /admin/reports',
      ]);
    });

    it('lists labelled pages in the menu by their place, unplaced ones last', () => {
      expect(menuPages(withPages).map((page) => page.label)).toEqual([
        'Courses',
        'Orders',
        'Locations',
        'Reports',
      ]);
    });

    it('refuses a page outside the admin or a path that is not a route', () => {
      expect(() => parseMfeManifest({ orders: { entry: '/re.js', pages: [{ path: '/checkout' }] } })).toThrow(
        'Invalid MFE manifest at orders.pages.0.path: expected a path under /admin/',
      );
      expect(() =>
        parseMfeManifest({ orders: { entry: '/re.js', pages: [{ path: '/admin/x?<script>' }] } }),
      ).toThrow('expected a route path such as /admin/orders');
    });
  });
});
