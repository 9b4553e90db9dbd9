import { apiFetch } from './api-client';
import { fetchSession } from './session-api';
import { isApiError } from './api-error';
import { SESSION_TOKEN_KEY } from './session-token';
import { mockFetch } from '../../testing';

describe('apiFetch', () => {
  beforeEach(() => {
    window.localStorage.clear();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('sends the stored session token in the token header, GET by default and no body', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'tok-123');
    const calls = mockFetch({ 'GET /api/admin/org': { body: { name: 'Demo' } } });
    await expect(apiFetch('/api/admin/org')).resolves.toEqual({ name: 'Demo' });
    expect(calls[0].method).toBe('GET');
    expect(calls[0].headers.token).toBe('tok-123');
    expect(calls[0].body).toBeUndefined();
  });

  it('serialises the body as JSON when given', async () => {
    const calls = mockFetch({ 'PUT /api/super-admin/user': { body: {} } });
    await apiFetch('/api/super-admin/user', { method: 'PUT', body: { org_id: 'x' } });
    expect(calls[0].body).toEqual({ org_id: 'x' });
    expect(calls[0].headers['Content-Type']).toBe('application/json');
    expect(calls[0].headers.token).toBeUndefined();
  });

  it("throws 'API call failed' on a non-OK answer, logs it, and keeps the server's body", async () => {
    mockFetch({
      'POST /api/admin/promo-code': {
        status: 400,
        body: {
          statusCode: 400,
          message: 'Validation failed',
          errors: { code: 'Code must be at least 3 characters' },
        },
      },
    });
    const error = await apiFetch('/api/admin/promo-code', { method: 'POST', body: {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('API call failed');
    expect(isApiError(error) && error.status).toBe(400);
    expect(isApiError(error) && error.body?.errors?.code).toBe('Code must be at least 3 characters');
    expect(console.error).toHaveBeenCalled();
  });
});

describe('fetchSession', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it("throws 'Failed to get session' when the lookup fails", async () => {
    mockFetch({
      'GET /api/auth/session': { status: 401, body: { statusCode: 401, message: 'You must be signed in' } },
    });
    await expect(fetchSession()).rejects.toThrow('Failed to get session');
  });

  it('returns the session when the lookup answers', async () => {
    mockFetch({
      'GET /api/auth/session': { body: { user: { email: 'a@b.c' }, organization: { name: 'Demo' } } },
    });
    await expect(fetchSession()).resolves.toMatchObject({ organization: { name: 'Demo' } });
  });
});
