import { useState } from 'react';
import {
  SYNC_MESSAGES as M,
  SYNC_PKCE_PROVIDERS,
  SYNC_PROVIDER_LABELS,
  type SyncProviderName,
} from '@studio/contracts';
import {
  Alert,
  App,
  Button,
  Flex,
  Typography,
  busy,
  serverMessage,
  startSyncConnect,
  type SyncProviderRead,
} from '@studio/ui';
import { useDisconnectSync } from '../api/sync';

type ProviderState = SyncProviderRead['provider'];

/** Where the browser goes next; a seam for tests (jsdom cannot navigate). */
export const navigation = { assign: (url: string) => window.location.assign(url) };

/**
 * The Connection section of a provider's drawer: the state and account, Connect (to the
 * provider's authorize page; Klaviyo with a PKCE verifier kept in local storage), Disconnect with a
 * confirmation, or, without OAuth client credentials on the server, the env vars to set.
 */
export function SyncConnection({ provider, state }: { provider: SyncProviderName; state: ProviderState }) {
  const label = SYNC_PROVIDER_LABELS[provider];
  const { message } = App.useApp();
  const disconnection = useDisconnectSync(provider);
  const [working, setWorking] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<{ text: string; retry: () => void } | null>(null);

  const connect = async () => {
    setWorking(true);
    setFailure(null);
    try {
      const url = await startSyncConnect(provider, SYNC_PKCE_PROVIDERS.includes(provider));
      navigation.assign(url);
    } catch (error) {
      console.error(`Connecting ${label} failed`, error);
      setFailure({
        text: serverMessage(error, `Could not start connecting ${label}.`),
        retry: () => void connect(),
      });
      setWorking(false);
    }
  };

  const disconnect = async () => {
    setWorking(true);
    setFailure(null);
    try {
      await disconnection.mutateAsync();
      setConfirming(false);
      message.success(M.disconnected(provider));
    } catch (error) {
      console.error(`Disconnecting ${label} failed`, error);
      setFailure({
        text: serverMessage(error, `Could not disconnect ${label}.`),
        retry: () => void disconnect(),
      });
    } finally {
      setWorking(false);
    }
  };

  const error = failure ? (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={failure.text}
      action={
        <Button size="small" onClick={failure.retry}>
          Retry
        </Button>
      }
    />
  ) : null;

  if (state.connected) {
    return (
      <Flex vertical gap={8}>
        <Alert
          type="success"
          showIcon
          title={M.connected(provider)}
          description={state.account_name ? `Account: ${state.account_name}` : undefined}
          action={
            confirming ? null : (
              <Button size="small" onClick={() => setConfirming(true)}>
                Disconnect
              </Button>
            )
          }
        />
        {confirming ? (
          <Alert
            type="warning"
            showIcon
            title={`Disconnect ${label}?`}
            description={`Syncing with ${label} stops, and this studio's access to the account is revoked.`}
            action={
              <Flex gap={8}>
                <Button size="small" onClick={() => setConfirming(false)} disabled={working}>
                  Keep connected
                </Button>
                <Button size="small" danger onClick={() => void disconnect()} loading={busy(working)}>
                  Yes, disconnect
                </Button>
              </Flex>
            }
          />
        ) : null}
        {error}
      </Flex>
    );
  }

  if (!state.oauth_configured) {
    return (
      <Alert
        type="warning"
        showIcon
        title={M.notConnected(provider)}
        description={
          <>
            {M.oauthNotConfigured(provider, state.env_vars)}{' '}
            <Typography.Text type="secondary">
              Set these environment variables on the server to enable Connect:
            </Typography.Text>
            <ul aria-label="Environment variables">
              {state.env_vars.map((name) => (
                <li key={name}>
                  <Typography.Text code>{name}</Typography.Text>
                </li>
              ))}
            </ul>
          </>
        }
      />
    );
  }

  return (
    <Flex vertical gap={8}>
      <Alert
        type="info"
        showIcon
        title={M.notConnected(provider)}
        action={
          <Button type="primary" size="small" onClick={() => void connect()} loading={busy(working)}>
            Connect
          </Button>
        }
      />
      {error}
    </Flex>
  );
}
