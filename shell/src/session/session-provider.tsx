import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { SessionContext, type SessionState } from '@studio/ui/src/session/session-context';
import { fetchSession, isSessionRefused, logout, logoutEverywhere } from '@studio/ui/src/api/session-api';
import { readSessionToken, writeSessionToken } from '@studio/ui/src/api/session-token';
import { onUnauthorized } from '@studio/ui/src/api/typed-client';
import { MESSAGES } from '@studio/contracts/src/messages';
import { PageLoading } from '../app/page-loading';
import type { Session } from '@studio/ui/src/api/api-types';

/**
 * Reads the session for a stored token at start. Only a 401 drops the token: a network blip or a
 * server error keeps it and shows the failure with a Retry. A 401 from any later call signs out.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  const [checking, setChecking] = useState(() => readSessionToken() !== null);
  const [lookupFailed, setLookupFailed] = useState(false);

  const refresh = useCallback(async () => {
    try {
      setSession(await fetchSession());
      setLookupFailed(false);
    } catch (error) {
      console.error(error);
      if (isSessionRefused(error)) {
        writeSessionToken(null);
        setSession(null);
        setLookupFailed(false);
      } else {
        // The token may be fine: keep it (and a session already read) and offer a retry.
        setLookupFailed(true);
      }
    }
  }, []);

  const endLocally = useCallback(() => {
    writeSessionToken(null);
    setSession(null);
    setLookupFailed(false);
  }, []);

  const signOut = useCallback(
    async (options?: { everywhere?: boolean }) => {
      try {
        await (options?.everywhere ? logoutEverywhere() : logout());
      } catch (error) {
        console.error(error);
      }
      endLocally();
    },
    [endLocally],
  );

  // A 401 anywhere (an expired or revoked token) ends the session: back to sign-in.
  useEffect(() => onUnauthorized(endLocally), [endLocally]);

  useEffect(() => {
    if (!checking) return;
    refresh().finally(() => setChecking(false));
    // Only at start.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const retry = useCallback(() => {
    setChecking(true);
    refresh().finally(() => setChecking(false));
  }, [refresh]);

  const value = useMemo<SessionState>(() => ({ session, refresh, signOut }), [session, refresh, signOut]);
  if (checking) return <PageLoading />;
  if (lookupFailed && !session && readSessionToken() !== null) {
    return <SessionLookupFailed onRetry={retry} />;
  }
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** Before sign-in antd is not loaded yet: a plain error state with a Retry. */
function SessionLookupFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" style={{ padding: 48, fontFamily: 'inherit' }}>
      <p style={{ fontWeight: 600 }}>{MESSAGES.api.sessionFailed}</p>
      <p style={{ color: '#8c8c8c' }}>Check your connection and try again.</p>
      <button type="button" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
