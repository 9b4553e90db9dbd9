import { useState } from 'react';
import {
  SYNC_MAIN_TOGGLES,
  SYNC_MESSAGES,
  SYNC_PROVIDER_KINDS,
  SYNC_PROVIDER_LABELS,
  SYNC_PROVIDERS,
  type SyncProviderName,
} from '@studio/contracts';
import {
  App,
  Button,
  Card,
  Flex,
  QueryGuard,
  Skeleton,
  Switch,
  Tag,
  Typography,
  serverMessage,
  syncQueries,
  useSaveSyncConfig,
  useDrawer,
  useQuery,
  useSession,
  PageFrame,
} from '@studio/ui';
import { queueDashboardLink } from './queue-dashboard.api';

/**
 * The provider's main switch (SYNC_MAIN_TOGGLES), saved on its own with the page's generic
 * toasts (spec 001 §8 "Settings saved" / "Error saving settings"); the drawer holds the rest.
 */
function MainToggle({ provider, checked }: { provider: SyncProviderName; checked: boolean }) {
  const { message } = App.useApp();
  const saveConfig = useSaveSyncConfig(provider);
  const saving = saveConfig.isPending;
  const { field, label } = SYNC_MAIN_TOGGLES[provider];
  const save = async (on: boolean) => {
    try {
      await saveConfig.mutateAsync({ [field]: on });
      message.success(SYNC_MESSAGES.settingsSaved);
    } catch (error) {
      console.error(`Saving ${SYNC_PROVIDER_LABELS[provider]} ${field} failed`, error);
      message.error(SYNC_MESSAGES.settingsSaveFailed);
    }
  };
  return (
    <Flex gap={8} align="center">
      <Switch
        size="small"
        checked={checked}
        loading={saving}
        onChange={(on) => void save(on)}
        aria-label={`${SYNC_PROVIDER_LABELS[provider]}: ${label}`}
      />
      <Typography.Text>{label}</Typography.Text>
    </Flex>
  );
}

/** One sync provider: what it is for, connected or not (and as whom), its main switch and its settings drawer. */
function SyncProviderCard({ provider }: { provider: SyncProviderName }) {
  const drawer = useDrawer();
  const query = useQuery(syncQueries.provider(provider));
  const label = SYNC_PROVIDER_LABELS[provider];
  const state = query.data?.provider;
  const config = state?.config_schema as Record<string, unknown> | undefined;
  return (
    <section aria-label={label}>
      <Card
        title={label}
        size="small"
        extra={<Typography.Text type="secondary">{SYNC_PROVIDER_KINDS[provider]}</Typography.Text>}
      >
        <QueryGuard
          query={query}
          title={SYNC_MESSAGES.loadFailed(provider)}
          loading={<Skeleton active paragraph={{ rows: 1 }} title={false} />}
        >
          {({ provider: state }) => (
            <Flex justify="space-between" align="center" gap={8} wrap>
              <Flex gap={8} align="center">
                {state.connected ? <Tag color="green">Connected</Tag> : <Tag>Not connected</Tag>}
                {state.connected && state.account_name ? (
                  <Typography.Text>{state.account_name}</Typography.Text>
                ) : null}
              </Flex>
              <Flex gap={16} align="center" wrap>
                <MainToggle
                  provider={provider}
                  checked={config?.[SYNC_MAIN_TOGGLES[provider].field] === true}
                />
                <Button onClick={() => drawer.open(provider, {})} aria-label={`${label} settings`}>
                  Settings
                </Button>
              </Flex>
            </Flex>
          )}
        </QueryGuard>
      </Card>
    </section>
  );
}

/** Opens the queue dashboard (super admins) through a one-time link; says why when it cannot. */
function QueueDashboardButton() {
  const { message } = App.useApp();
  const [opening, setOpening] = useState(false);
  const open = async () => {
    setOpening(true);
    try {
      window.location.assign(await queueDashboardLink());
    } catch (error) {
      message.error(serverMessage(error, 'Could not open the queue dashboard'));
      setOpening(false);
    }
  };
  return (
    <Button onClick={() => void open()} loading={opening}>
      Queue dashboard
    </Button>
  );
}

export function IntegrationsPage() {
  const { session } = useSession();
  const drawer = useDrawer();
  const superAdmin = session?.user.role === 'super_admin';
  return (
    <PageFrame title="Integrations">
      <Flex vertical gap={16}>
        <Typography.Text type="secondary">Sync providers are set up here.</Typography.Text>
        {SYNC_PROVIDERS.map((provider) => (
          <SyncProviderCard key={provider} provider={provider} />
        ))}
        {superAdmin ? (
          <Card title="Super Admin Settings" size="small">
            <Flex gap={8} wrap>
              <Button onClick={() => drawer.open('super_admin', {})}>Switch organization</Button>
              <QueueDashboardButton />
            </Flex>
          </Card>
        ) : null}
      </Flex>
    </PageFrame>
  );
}
