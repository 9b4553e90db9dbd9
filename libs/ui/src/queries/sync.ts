import { syncPkceStorageKey, type SyncConfigPayload, type SyncProviderName } from '@studio/contracts';
import { calculatePKCECodeChallenge, generateRandomCodeVerifier } from 'oauth4webapi';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { $api } from '../api/query-client';
import { answer, api } from '../api/typed-client';

/*
 * Sync providers (spec 001 §7), shared by the shell (its Integrations page and the OAuth callback
 * page) and the integrations remote (each provider's settings drawer), and the Eventbrite events
 * read by the courses remote's ticketing picker. Connect starts in the remote and finishes on the
 * shell's callback page: the PKCE verifier one keeps, the other reads, so both live here.
 */
const PROVIDER = '/api/admin/sync/providers/{provider}';

export const syncQueries = {
  provider: (provider: SyncProviderName) =>
    $api.queryOptions('get', PROVIDER, { params: { path: { provider } } }),
  /** Edit Course's ticketing picker: the chosen Eventbrite organization's events, newest first (first page). */
  ticketingEvents: () => $api.queryOptions('get', '/api/admin/partners/eventbrite/events', {}),
};
export const syncKeys = {
  provider: (provider: SyncProviderName) => ['get', PROVIDER, { params: { path: { provider } } }] as const,
};

/**
 * PUT /api/admin/sync/providers/config_schema (fields left out keep their value). The saved provider
 * it answers replaces the cached one at once. Shared: the shell's Integrations page switches a
 * provider's main toggle, the integrations remote's drawer saves all its settings.
 */
export function useSaveSyncConfig(provider: SyncProviderName) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: object) =>
      answer(
        api.PUT('/api/admin/sync/providers/config_schema', {
          body: { ...settings, provider_name: provider } as SyncConfigPayload,
        }),
      ),
    onSuccess: (saved) => queryClient.setQueryData(syncKeys.provider(provider), saved),
  });
}

/**
 * Connect: asks the API for the provider's authorize page. For a PKCE provider (Klaviyo) the
 * browser makes the verifier, keeps it in local storage (spec 001 §7) and sends only its S256
 * challenge. Answers the URL to go to.
 */
export async function startSyncConnect(provider: SyncProviderName, pkce: boolean): Promise<string> {
  let codeChallenge: string | undefined;
  if (pkce) {
    const verifier = generateRandomCodeVerifier();
    codeChallenge = await calculatePKCECodeChallenge(verifier);
    window.localStorage.setItem(syncPkceStorageKey(provider), verifier);
  }
  const answered = await answer(
    api.POST('/api/admin/sync/providers/{provider}/authorize', {
      params: { path: { provider } },
      body: codeChallenge ? { code_challenge: codeChallenge } : {},
    }),
  );
  return answered.authorize_url;
}

/**
 * The provider sent the browser back: posts the code and state, with the kept verifier, which is
 * removed whatever the answer (it is good for one attempt only). Answers the provider as read.
 */
export async function finishSyncConnect(provider: SyncProviderName, input: { code: string; state: string }) {
  const key = syncPkceStorageKey(provider);
  const verifier = window.localStorage.getItem(key);
  window.localStorage.removeItem(key);
  return answer(
    api.POST('/api/admin/sync/providers/{provider}/callback', {
      params: { path: { provider } },
      body: { code: input.code, state: input.state, ...(verifier ? { code_verifier: verifier } : {}) },
    }),
  );
}
