/** The session token lives in localStorage under one key so every remote sends the same one. */
export const SESSION_TOKEN_KEY = 'studio_token';

export function readSessionToken(): string | null {
  try {
    return window.localStorage.getItem(SESSION_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function writeSessionToken(token: string | null): void {
  if (token === null) window.localStorage.removeItem(SESSION_TOKEN_KEY);
  else window.localStorage.setItem(SESSION_TOKEN_KEY, token);
}
