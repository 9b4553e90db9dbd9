import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSession } from '@studio/ui/src/session/session-context';
import { SESSION_TOKEN_KEY } from '@studio/ui/src/api/session-token';
import { answer, api } from '@studio/ui/src/api/typed-client';
import { TEST_SESSION, errorBody, mockFetch, networkError, okBody } from '@studio/ui/testing';
import { SessionProvider } from './session-provider';

function Probe() {
  const { session } = useSession();
  return <p>{session ? `Signed in as ${session.user.email}` : 'Signed out'}</p>;
}

function renderProvider() {
  return render(
    <SessionProvider>
      <Probe />
    </SessionProvider>,
  );
}

beforeEach(() => {
  window.localStorage.clear();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

const SESSION_OK = okBody<'/api/auth/session', 'get'>(TEST_SESSION);

describe('SessionProvider', () => {
  it('a network blip during the session lookup keeps the token and offers a Retry that signs in', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'tok-1');
    let online = false;
    mockFetch({ 'GET /api/auth/session': () => (online ? SESSION_OK : networkError()) });
    renderProvider();
    expect(await screen.findByText('Failed to get session')).toBeInTheDocument();
    expect(window.localStorage.getItem(SESSION_TOKEN_KEY)).toBe('tok-1');

    online = true;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Signed in as owner@demo.studio')).toBeInTheDocument();
    expect(window.localStorage.getItem(SESSION_TOKEN_KEY)).toBe('tok-1');
  });

  it('a server error during the lookup keeps the token too', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'tok-1');
    mockFetch({ 'GET /api/auth/session': errorBody(503, 'Service unavailable') });
    renderProvider();
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(window.localStorage.getItem(SESSION_TOKEN_KEY)).toBe('tok-1');
  });

  it('only a 401 on the lookup deletes the stored token', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'tok-1');
    mockFetch({ 'GET /api/auth/session': errorBody(401, 'You must be signed in') });
    renderProvider();
    expect(await screen.findByText('Signed out')).toBeInTheDocument();
    expect(window.localStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
  });

  it('a 401 from any later call signs the user out and drops the token', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'tok-1');
    mockFetch({
      'GET /api/auth/session': SESSION_OK,
      'GET /api/admin/location': errorBody(401, 'You must be signed in'),
    });
    renderProvider();
    expect(await screen.findByText('Signed in as owner@demo.studio')).toBeInTheDocument();
    await expect(answer(api.GET('/api/admin/location'))).rejects.toThrow('API call failed');
    await waitFor(() => expect(screen.getByText('Signed out')).toBeInTheDocument());
    expect(window.localStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
  });
});
