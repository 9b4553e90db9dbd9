import { MESSAGES } from '@studio/contracts/src/messages';
import { apiFetch } from './api-client';
import type { LoginResponse, Session } from './api-types';

/** The current session; any failure becomes the spec's 'Failed to get session'. */
export async function fetchSession(): Promise<Session> {
  try {
    return await apiFetch<Session>('/api/auth/session');
  } catch (error) {
    throw new Error(MESSAGES.api.sessionFailed, { cause: error });
  }
}

export function login(email: string, password: string): Promise<LoginResponse> {
  return apiFetch<LoginResponse>('/api/auth/login', { method: 'POST', body: { email, password } });
}

export function logout(): Promise<void> {
  return apiFetch<void>('/api/auth/logout', { method: 'POST' });
}
