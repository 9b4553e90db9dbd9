import { answer, api, onUnauthorized } from './typed-client';
import { fetchSession, isSessionRefused, login } from './session-api';
import { isApiError } from './api-error';
import { SESSION_TOKEN_KEY } from './session-token';
import { errorBody, mockFetch, networkError, okBody } from '../../testing';

const ORG = {
  organization_id: '22222222-2222-4222-8222-222222222222',
  name: 'Demo',
  timezone: 'America/New_York',
  listed_course: true,
  slug: 'demo',
  public_url: null,
  store_url: 'http://localhost:3000/s/demo',
  app_store_url: 'http://localhost:3000/s/demo',
  reminder_offsets_mins: [1440],
  waitlist_claim_hours: 12,
};

describe('typed API client', () => {
  beforeEach(() => {
    window.localStorage.clear();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('sends the stored session token in the token header, GET with no body', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'tok-123');
    const calls = mockFetch({ 'GET /api/admin/org': okBody<'/api/admin/org', 'get'>(ORG) });
    await expect(answer(api.GET('/api/admin/org'))).resolves.toEqual(ORG);
    expect(calls[0].method).toBe('GET');
    expect(calls[0].headers.token).toBe('tok-123');
    expect(calls[0].body).toBeUndefined();
  });

  it('serialises the body as JSON and sends no token when none is stored', async () => {
    const calls = mockFetch({
      'PUT /api/super-admin/user': okBody<'/api/super-admin/user', 'put'>({
        user_id: 'u1',
        email: 'a@b.c',
        first_name: 'A',
        last_name: 'B',
        role: 'super_admin',
        organization_id: 'x',
      }),
    });
    await api.PUT('/api/super-admin/user', { body: { org_id: 'x' } });
    expect(calls[0].body).toEqual({ org_id: 'x' });
    expect(calls[0].headers['content-type']).toBe('application/json');
    expect(calls[0].headers.token).toBeUndefined();
  });

  it("throws 'API call failed' on a non-OK answer, logs it, and keeps the server's body", async () => {
    mockFetch({
      'PUT /api/admin/location/l1': errorBody(400, 'Validation failed', { name: 'Name is required' }),
    });
    const error = await api
      .PUT('/api/admin/location/{location_id}', {
        params: { path: { location_id: 'l1' } },
        body: { name: '', address: 'x', timezone: 'UTC' } as never,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('API call failed');
    expect(isApiError(error) && error.status).toBe(400);
    expect(isApiError(error) && error.body?.errors?.name).toBe('Name is required');
    expect(console.error).toHaveBeenCalled();
  });

  it('a 401 tells the session to end; a wrong password at sign-in does not', async () => {
    const ended = jest.fn();
    const unregister = onUnauthorized(ended);
    mockFetch({
      'GET /api/admin/org': errorBody(401, 'You must be signed in'),
      'POST /api/auth/login': errorBody(401, 'Invalid email or password'),
    });
    await expect(login('a@b.c', 'wrong')).rejects.toThrow('API call failed');
    expect(ended).not.toHaveBeenCalled();
    await expect(answer(api.GET('/api/admin/org'))).rejects.toThrow('API call failed');
    expect(ended).toHaveBeenCalledTimes(1);
    unregister();
  });
});

describe('fetchSession', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it("throws 'Failed to get session' when the server refuses the token, marked as refused", async () => {
    mockFetch({ 'GET /api/auth/session': errorBody(401, 'You must be signed in') });
    const error = await fetchSession().catch((e: unknown) => e);
    expect((error as Error).message).toBe('Failed to get session');
    expect(isSessionRefused(error)).toBe(true);
  });

  it("a network failure is 'Failed to get session' too, but not a refused token", async () => {
    mockFetch({ 'GET /api/auth/session': networkError() });
    const error = await fetchSession().catch((e: unknown) => e);
    expect((error as Error).message).toBe('Failed to get session');
    expect(isSessionRefused(error)).toBe(false);
  });

  it('returns the session when the lookup answers', async () => {
    mockFetch({
      'GET /api/auth/session': okBody<'/api/auth/session', 'get'>({
        user: {
          user_id: 'u1',
          email: 'a@b.c',
          first_name: 'A',
          last_name: 'B',
          role: 'owner',
          organization_id: ORG.organization_id,
        },
        organization: ORG,
      }),
    });
    await expect(fetchSession()).resolves.toMatchObject({ organization: { name: 'Demo' } });
  });
});
