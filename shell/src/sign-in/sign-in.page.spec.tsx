import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SessionContext } from '@studio/ui/src/session/session-context';
import { SESSION_TOKEN_KEY } from '@studio/ui/src/api/session-token';
import { TEST_SESSION, errorBody, mockFetch, okBody } from '@studio/ui/testing';
import { SignInPage } from './sign-in.page';

function renderPage(refresh = jest.fn(async () => undefined)) {
  render(
    <SessionContext.Provider value={{ session: null, refresh, signOut: async () => undefined }}>
      <SignInPage />
    </SessionContext.Provider>,
  );
  return refresh;
}

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

beforeEach(() => {
  window.localStorage.clear();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('SignInPage', () => {
  it('shows the schema messages under the fields and calls nothing', async () => {
    const calls = mockFetch({});
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('An email is required')).toBeInTheDocument();
    expect(screen.getByText('A password is required')).toBeInTheDocument();

    type('Email', 'not-an-email');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("shows the server's 401 message and stores no token", async () => {
    mockFetch({
      'POST /api/auth/login': errorBody(401, 'Invalid email or password'),
    });
    const refresh = renderPage();
    type('Email', 'owner@demo.studio');
    type('Password', 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(window.localStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
    expect(refresh).not.toHaveBeenCalled();
  });

  it('stores the token and reloads the session on success', async () => {
    const calls = mockFetch({
      'POST /api/auth/login': okBody<'/api/auth/login', 'post'>({ token: 'tok-1', user: TEST_SESSION.user }),
    });
    const refresh = renderPage();
    type('Email', ' owner@demo.studio ');
    type('Password', 'demo-studio');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(refresh).toHaveBeenCalled());
    expect(window.localStorage.getItem(SESSION_TOKEN_KEY)).toBe('tok-1');
    expect(calls[0].body).toEqual({ email: 'owner@demo.studio', password: 'demo-studio' });
  });
});
