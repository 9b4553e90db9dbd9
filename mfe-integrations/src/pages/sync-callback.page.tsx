import { useEffect, useRef, useState } from 'react';
import {
  isSyncProvider,
  SYNC_MESSAGES as M,
  SYNC_PROVIDER_LABELS,
  type SyncProviderName,
} from '@studio/contracts';
import {
  Alert,
  Button,
  Flex,
  Spin,
  finishSyncConnect,
  serverMessage,
  syncKeys,
  useDrawer,
  useQueryClient,
  PageFrame,
  Link,
  useParams,
  useSearchParams,
} from '@studio/ui';

type Outcome = { kind: 'working' } | { kind: 'connected' } | { kind: 'failed'; text: string };

const BACK = '/admin/settings/integrations';

/**
 * /admin/integrations/{provider}/callback: where a provider's authorize page sends the browser
 * back. Posts the code and state (with Klaviyo's verifier from local storage) once, then shows
 * "<Label> is connected." and the provider's drawer, or the refusal with a way back.
 */
export function SyncCallbackPage() {
  const params = useParams<{ provider: string }>();
  const [search] = useSearchParams();
  const provider = isSyncProvider(params.provider) ? params.provider : null;
  const drawer = useDrawer();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'working' });
  const posted = useRef(false);

  useEffect(() => {
    if (posted.current) return;
    posted.current = true;
    if (!provider) {
      setOutcome({ kind: 'failed', text: M.unknownProvider });
      return;
    }
    const label = SYNC_PROVIDER_LABELS[provider];
    const denied = search.get('error');
    const code = search.get('code');
    const state = search.get('state');
    if (denied || !code || !state) {
      setOutcome({
        kind: 'failed',
        text: denied
          ? `${label} did not connect: ${search.get('error_description') ?? denied}.`
          : `${label} sent no authorization code back. Click Connect again.`,
      });
      return;
    }
    finishSyncConnect(provider, { code, state }).then(
      (answer) => {
        queryClient.setQueryData(syncKeys.provider(provider), answer);
        setOutcome({ kind: 'connected' });
        drawer.open(provider, {});
      },
      (error: unknown) => {
        console.error(`Connecting ${label} failed`, error);
        setOutcome({
          kind: 'failed',
          text: serverMessage(error, `${label} could not be connected. Click Connect again.`),
        });
      },
    );
  }, [provider, search, drawer, queryClient]);

  const label = provider ? SYNC_PROVIDER_LABELS[provider] : 'Integration';
  return (
    <PageFrame title={`Connecting ${label}`}>
      <Flex vertical gap={16} align="start">
        {outcome.kind === 'working' ? (
          <Flex gap={8} align="center" role="status">
            <Spin /> <span>Connecting {label}…</span>
          </Flex>
        ) : outcome.kind === 'connected' ? (
          <Alert type="success" showIcon title={M.connected(provider as SyncProviderName)} />
        ) : (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={`${label} is not connected.`}
            description={outcome.text}
          />
        )}
        <Flex gap={8}>
          <Link to={BACK}>Back to Integrations</Link>
          {provider && outcome.kind !== 'working' ? (
            <Button size="small" onClick={() => drawer.open(provider, {})}>
              {outcome.kind === 'connected' ? `${label} settings` : 'Try again'}
            </Button>
          ) : null}
        </Flex>
      </Flex>
    </PageFrame>
  );
}
