import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { RemoteVersionError } from '@studio/ui';

jest.mock('@module-federation/enhanced/runtime', () => ({
  loadRemote: jest.fn(),
  registerRemotes: jest.fn(),
}));
const load = loadRemote as jest.MockedFunction<typeof loadRemote>;
const register = registerRemotes as jest.MockedFunction<typeof registerRemotes>;

/** Answers fetch() from a table of path -> JSON body (404 for anything else). */
function serve(routes: Record<string, unknown>) {
  const fetchMock = jest.fn(async (url: string) => {
    const path = new URL(url, 'http://localhost').href.replace('http://localhost', '');
    return path in routes || url in routes
      ? ({ ok: true, status: 200, json: async () => routes[path] ?? routes[url] } as Response)
      : ({ ok: false, status: 404, json: async () => ({}) } as Response);
  });
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}

// A fresh module (and its cached manifest) per test.
let remoteDrawers: typeof import('./remotes');
beforeEach(() => {
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the module state
    remoteDrawers = require('./remotes');
  });
  load.mockReset();
  register.mockReset();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('routing drawers by /mfe-manifest.json', () => {
  it('finds the remote that lists a type and registers every remote under mfe_<name>', async () => {
    serve({
      '/mfe-manifest.json': {
        courses: { entry: '/mfe/courses/remoteEntry.js', version: '0.1.0', drawers: ['share'] },
        orders: {
          entry: 'http://cdn.test/orders/remoteEntry.js',
          version: '0.2.0',
          drawers: ['discount', 'refund_report'],
        },
      },
    });
    expect(await remoteDrawers.drawerRemote('refund_report')).toBe('orders');
    expect(await remoteDrawers.drawerRemote('share')).toBe('courses');
    expect(await remoteDrawers.drawerRemote('student')).toBeNull();
    expect(register).toHaveBeenCalledTimes(1);
    expect(register.mock.calls[0][0]).toEqual([
      { name: 'mfe_courses', entry: '/mfe/courses/remoteEntry.js' },
      { name: 'mfe_orders', entry: 'http://cdn.test/orders/remoteEntry.js' },
    ]);
  });

  it("reads an old-shape entry's drawers from the mfe.json beside its remoteEntry.js", async () => {
    const fetchMock = serve({
      '/mfe-manifest.json': { orders: 'http://cdn.test/v2/remoteEntry.js' },
      'http://cdn.test/v2/mfe.json': {
        name: 'mfe_orders',
        version: '2.0.0',
        drawers: ['order', 'refund_report'],
      },
    });
    expect(await remoteDrawers.drawerRemote('refund_report')).toBe('orders');
    expect(fetchMock).toHaveBeenCalledWith('http://cdn.test/v2/mfe.json');
  });

  it('fails (shown in the drawer) when the type is not found while a remote cannot be reached', async () => {
    serve({ '/mfe-manifest.json': { courses: 'http://127.0.0.1:9/remoteEntry.js' } });
    await expect(remoteDrawers.drawerRemote('share')).rejects.toThrow(
      'Could not reach mfe_courses to find drawer share',
    );
  });

  it('fails when the manifest cannot be read, and reads it again next time', async () => {
    serve({});
    await expect(remoteDrawers.drawerRemote('share')).rejects.toThrow('/mfe-manifest.json answered 404');
    serve({ '/mfe-manifest.json': { courses: { entry: '/c.js', drawers: ['share'] } } });
    expect(await remoteDrawers.drawerRemote('share')).toBe('courses');
  });

  it("tells which shared library a refused remote needs, from the federation runtime's strictVersion error", async () => {
    serve({ '/mfe-manifest.json': { orders: { entry: '/o.js', drawers: ['discount'] } } });
    load.mockRejectedValueOnce(
      new Error(
        '[ Federation Runtime ]: Version 7.92.0 from shell of shared singleton module react-hook-form does not satisfy the requirement of mfe_orders which needs ^99.0.0)',
      ),
    );
    const refused = remoteDrawers.loadDrawerRegistry('orders');
    // (isolateModules: the module's own copy of @studio/ui made the error.)
    await expect(refused).rejects.toMatchObject({ name: new RemoteVersionError('').name });
    await expect(refused).rejects.toThrow(
      'mfe_orders needs react-hook-form ^99.0.0, but this admin offers 7.92.0.',
    );
    // Another failure is passed on as it is.
    load.mockRejectedValueOnce(new Error('ScriptExternalLoadError'));
    await expect(remoteDrawers.loadDrawerRegistry('orders')).rejects.toThrow('ScriptExternalLoadError');
    load.mockResolvedValueOnce({ drawers: { discount: () => null } });
    expect(Object.keys(await remoteDrawers.loadDrawerRegistry('orders'))).toEqual(['discount']);
  });
});
