import { MESSAGES } from '@studio/contracts/src/messages';
import { answer, api } from './typed-client';
import { isApiError } from './api-error';
import type { LoginResponse, Session } from './api-types';

/** The current session; any failure becomes the spec's 'Failed to get session' (cause attached). */
export async function fetchSession(): Promise<Session> {
  try {
    return await answer(api.GET('/api/auth/session'));
  } catch (error) {
    throw new Error(MESSAGES.api.sessionFailed, { cause: error });
  }
}

/**
 * True when the session lookup failed because the server refused the token (401). Only then is the
 * stored token dropped: a network blip or a 5xx keeps it, and the lookup can be retried.
 */
export function isSessionRefused(error: unknown): boolean {
  const cause = error instanceof Error && 'cause' in error ? error.cause : error;
  return isApiError(cause) && cause.status === 401;
}

export function login(email: string, password: string): Promise<LoginResponse> {
  return answer(api.POST('/api/auth/login', { body: { email, password } }));
}

export async function logout(): Promise<void> {
  await answer(api.POST('/api/auth/logout'));
}

/** Sign out everywhere: revokes every session of the account, this one included. */
export async function logoutEverywhere(): Promise<void> {
  await answer(api.POST('/api/auth/logout-all'));
}
