import { createContext, useContext } from 'react';
import type { Session } from '../api/api-types';

export interface SessionState {
  session: Session | null;
  /** Re-reads the session (after sign-in or an organization switch). */
  refresh: () => Promise<void>;
  /** Signs this session out; with `everywhere`, every session of the account (other browsers too). */
  signOut: (options?: { everywhere?: boolean }) => Promise<void>;
}

export const SessionContext = createContext<SessionState>({
  session: null,
  refresh: async () => undefined,
  signOut: async () => undefined,
});

export function useSession(): SessionState {
  return useContext(SessionContext);
}

/** The organization's zone, or the spec's default when the session is not there yet. */
export function useOrganizationTimezone(): string {
  return useSession().session?.organization.timezone || 'America/New_York';
}

/**
 * Where the organization's store is (share links, Preview): its own site when it names one, else
 * PUBLIC_APP_URL/s/{slug}, as the server says (store_url).
 */
export function usePublicHost(): string {
  const url = useSession().session?.organization.store_url;
  return (url || window.location.origin).replace(/\/+$/, '');
}
