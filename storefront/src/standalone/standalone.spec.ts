/** @jest-environment node */
import { routes } from '../routes';
import { failedPage, httpStoreApi, StoreApiError } from './http-store-api';
import { matchRoute } from './match-route';
import { forwardedHeaders } from './proxy';

const ID = '3f2b8c1e-5d4a-4b6f-9e7d-1a2b3c4d5e6f';

describe('matchRoute: the route table as the API process routes it', () => {
  const match = (path: string) => {
    const found = matchRoute(routes, path);
    return found && { name: found.route.name, params: found.params };
  };

  it('finds each page with its parameters, decoded', () => {
    expect(match('/s/demo-studio')).toEqual({ name: 'home', params: { slug: 'demo-studio' } });
    expect(match(`/s/demo-studio/activity/${ID}`)).toEqual({
      name: 'course',
      params: { slug: 'demo-studio', id: ID },
    });
    expect(match('/s/demo-studio/checkout')).toEqual({ name: 'checkout', params: { slug: 'demo-studio' } });
    expect(match('/s/demo-studio/checkout/complete')?.name).toBe('checkout-complete');
    expect(match('/s/caf%C3%A9')?.params).toEqual({ slug: 'café' });
  });

  it('ignores a trailing slash and the case of fixed segments, as Fastify does here', () => {
    expect(match('/s/demo-studio/')?.name).toBe('home');
    expect(match('/S/demo-studio/Checkout/COMPLETE')?.name).toBe('checkout-complete');
  });

  it('matches nothing else', () => {
    for (const path of [
      '/',
      '/s',
      '/s/',
      '/s//activity/x',
      '/s/demo-studio/activity',
      '/s/demo-studio/other',
      '/s/%E0%A4%A',
    ]) {
      expect(match(path)).toBeNull();
    }
  });
});

describe('httpStoreApi: the Storefront API over HTTP, its answers as pages', () => {
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    jest.fn(
      async () =>
        new Response(JSON.stringify(body), {
          status,
          headers: { 'content-type': 'application/json', ...headers },
        }),
    );

  it('reads the API at its origin with the client address, and answers its body', async () => {
    const fetch = answer(200, { name: 'Demo Studio' });
    const api = httpStoreApi({
      apiUrl: 'http://api:3000/',
      fetch,
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    await expect(api.checkoutSession('Demo-Studio', ID.toUpperCase())).resolves.toEqual({
      name: 'Demo Studio',
    });
    // The typed client sends a Request.
    const request = (fetch.mock.calls[0] as unknown as [Request])[0];
    expect(request.url).toBe(`http://api:3000/api/public/demo-studio/sessions/${ID}`);
    expect(Object.fromEntries(request.headers.entries())).toMatchObject({ 'x-forwarded-for': '203.0.113.7' });
  });

  it("makes the API's 404 the 404 page with its message, linking back to the store unless the store is missing", async () => {
    const course = httpStoreApi({
      apiUrl: 'http://api',
      fetch: answer(404, { statusCode: 404, message: 'Course not found' }),
    });
    const error = await course.course('demo-studio', ID).catch((e: unknown) => e);
    expect(failedPage(error)).toEqual({
      status: 404,
      page: 'not-found',
      data: { message: 'Course not found', storeFound: true },
    });
    const store = httpStoreApi({
      apiUrl: 'http://api',
      fetch: answer(404, { statusCode: 404, message: 'Store not found' }),
    });
    expect(failedPage(await store.home('nobody').catch((e: unknown) => e))).toMatchObject({
      status: 404,
      data: { message: 'Store not found', storeFound: false },
    });
  });

  it('answers 404 without a call for what cannot exist, as the API process does', async () => {
    const fetch = answer(200, {});
    const api = httpStoreApi({ apiUrl: 'http://api', fetch });
    const message = async (read: Promise<unknown>) =>
      ((await read.catch((e: unknown) => e)) as Error).message;
    expect(await message(api.course('demo-studio', 'wheel'))).toBe('Course not found');
    expect(await message(api.checkoutSession('demo-studio', ''))).toBe('Session not found');
    expect(await message(api.checkoutProduct('demo-studio', '../admin'))).toBe('Product not found');
    expect(await message(api.order('demo-studio', ID, 'short'))).toBe('Order not found');
    expect(await message(api.home('..'))).toBe('Store not found');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('makes a 5xx, an answer that is not JSON, or no answer the 500 page; a 429 the same 429', async () => {
    const broken = httpStoreApi({
      apiUrl: 'http://api',
      fetch: answer(503, { message: 'Service unavailable' }),
    });
    expect(failedPage(await broken.home('demo-studio').catch((e: unknown) => e))).toEqual({
      status: 500,
      page: 'error',
      data: null,
    });
    const html = httpStoreApi({
      apiUrl: 'http://api',
      fetch: jest.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })),
    });
    expect(failedPage(await html.home('demo-studio').catch((e: unknown) => e)).status).toBe(500);
    const down = httpStoreApi({
      apiUrl: 'http://api',
      fetch: jest.fn(async () => Promise.reject(new TypeError('fetch failed'))),
    });
    const error = await down.home('demo-studio').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreApiError);
    expect(failedPage(error).status).toBe(500);
    const limited = httpStoreApi({
      apiUrl: 'http://api',
      fetch: answer(
        429,
        { message: 'Too many requests. Please wait a moment and try again.' },
        { 'retry-after': '12' },
      ),
    });
    expect(failedPage(await limited.home('demo-studio').catch((e: unknown) => e))).toEqual({
      status: 429,
      message: 'Too many requests. Please wait a moment and try again.',
      retryAfter: '12',
    });
  });
});

describe('forwardedHeaders', () => {
  it("appends the peer's address to the X-Forwarded-For it came with", () => {
    const socket = { remoteAddress: '10.0.0.5' } as never;
    expect(forwardedHeaders({ headers: { host: 'shop.example.com' }, socket })).toEqual({
      'x-forwarded-for': '10.0.0.5',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'shop.example.com',
    });
    expect(
      forwardedHeaders({
        headers: {
          host: 'store:8080',
          'x-forwarded-for': '203.0.113.7',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'shop.example.com',
        },
        socket,
      }),
    ).toEqual({
      'x-forwarded-for': '203.0.113.7, 10.0.0.5',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'shop.example.com',
    });
  });
});
