import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { SessionContext, type SessionState } from '@studio/ui/src/session/session-context';
import { fetchSession, logout } from '@studio/ui/src/api/session-api';
import { readSessionToken, writeSessionToken } from '@studio/ui/src/api/session-token';
import { PageLoading } from '../app/page-loading';
import type { Session } from '@studio/ui/src/api/api-types';

/** Reads the session for a stored token once at start; a token the server refuses is dropped. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  const [checking, setChecking] = useState(() => readSessionToken() !== null);

  const refresh = useCallback(async () => {
    try {
      setSession(await fetchSession());
    } catch (error) {
      console.error(error);
      writeSessionToken(null);
      setSession(null);
    }
  }, []);

  const signOut = useCallback(async () => {
    try {
      await logout();
    } catch (error) {
      console.error(error);
    }
    writeSessionToken(null);
    setSession(null);
  }, []);

  useEffect(() => {
    if (!checking) return;
    refresh().finally(() => setChecking(false));
    // Only at start.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const value = useMemo<SessionState>(() => ({ session, refresh, signOut }), [session, refresh, signOut]);
  if (checking) return <PageLoading />;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
