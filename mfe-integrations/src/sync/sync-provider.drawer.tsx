import { useForm, type Resolver } from 'react-hook-form';
import {
  SYNC_CONFIG_SCHEMAS,
  SYNC_MESSAGES as M,
  SYNC_PROVIDER_LABELS,
  type SyncProviderName,
  type SyncRemoteChoice,
} from '@studio/contracts';
import {
  App,
  DrawerSection,
  FormField,
  QueryGuard,
  Select,
  syncQueries,
  useSaveSyncConfig,
  useQuery,
  useSkeletonDelay,
  useUnsavedChanges,
  zodResolver,
  type DrawerProps,
  LabeledSwitch,
  FormDrawer,
} from '@studio/ui';
import { SyncConnection } from './sync-connection';
import { SyncActivitySection } from './sync-activity';
import { SyncConflictsSection } from './sync-conflicts';

/** Every provider's config_schema field; each provider's schema takes only its own (spec 001 §3). */
interface SyncSettingsForm {
  organization_id?: string | null;
  sync_all_courses?: boolean;
  sync_all_enrollments?: true;
  list_id?: string | null;
  sync_all_customers?: boolean;
  meeting_summary?: boolean;
}

interface ToggleSpec {
  name: 'sync_all_courses' | 'sync_all_enrollments' | 'sync_all_customers' | 'meeting_summary';
  label: string;
  extra: string;
  /** Shown on and not changeable (Eventbrite enrollments always sync). */
  fixed?: boolean;
}

const TOGGLES: Record<SyncProviderName, ToggleSpec[]> = {
  eventbrite: [
    {
      name: 'sync_all_courses',
      label: 'Sync all courses',
      extra: 'Every course and its sessions become Eventbrite events.',
    },
    {
      name: 'sync_all_enrollments',
      label: 'Sync all enrollments',
      extra: 'Orders placed on Eventbrite always come back as enrollments.',
      fixed: true,
    },
  ],
  mailchimp: [
    {
      name: 'sync_all_customers',
      label: 'Sync all customers',
      extra: 'Students are added to the chosen audience.',
    },
  ],
  klaviyo: [
    {
      name: 'sync_all_customers',
      label: 'Sync all customers',
      extra: 'Students are added to the chosen list.',
    },
  ],
  zoom: [
    {
      name: 'meeting_summary',
      label: 'Attach meeting summaries',
      extra: 'After a session, its meeting summary is attached to the session.',
    },
  ],
};

/** The remote choice each provider picks: Eventbrite's organization, or a mailing-list service's list. */
const PICKERS: Partial<
  Record<SyncProviderName, { name: 'organization_id' | 'list_id'; label: string; placeholder: string }>
> = {
  eventbrite: {
    name: 'organization_id',
    label: 'Eventbrite organization',
    placeholder: 'Select an organization',
  },
  mailchimp: { name: 'list_id', label: 'Mailchimp audience', placeholder: 'Select an audience' },
  klaviyo: { name: 'list_id', label: 'Klaviyo list', placeholder: 'Select a list' },
};

/** The saved id stays choosable even when the provider's list does not name it (not connected, or removed there). */
function pickerOptions(choices: SyncRemoteChoice[], saved: string | null | undefined) {
  const options = choices.map((c) => ({ value: c.id, label: c.name }));
  if (saved && !choices.some((c) => c.id === saved)) options.push({ value: saved, label: saved });
  return options;
}

/**
 * One provider's sync settings (spec 001 §2 sync settings panels): connection state and account,
 * its organization or list picker, the toggles of its config_schema, and Save with the provider's
 * toasts (spec 001 §8).
 */
export function SyncProviderDrawer({ provider, close }: DrawerProps & { provider: SyncProviderName }) {
  const label = SYNC_PROVIDER_LABELS[provider];
  const { message } = App.useApp();
  const saveConfig = useSaveSyncConfig(provider);
  const waiting = useSkeletonDelay();
  const query = useQuery(syncQueries.provider(provider));
  const form = useForm<SyncSettingsForm>({
    // The provider's own schema: it takes exactly the fields this provider's form holds.
    resolver: zodResolver(SYNC_CONFIG_SCHEMAS[provider]) as unknown as Resolver<SyncSettingsForm>,
    values: query.data?.provider.config_schema as SyncSettingsForm | undefined,
    resetOptions: { keepDirtyValues: true },
  });
  useUnsavedChanges(form.formState.isDirty);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await saveConfig.mutateAsync(values);
      form.reset(saved.provider.config_schema as SyncSettingsForm);
      if (saved.provider.connected) message.success(M.saved(provider));
      else message.warning(M.savedNotConnected(provider));
    } catch (error) {
      console.error(`Saving ${label} settings failed`, error);
      message.error(M.saveFailed(provider));
    }
  });

  return (
    <QueryGuard query={query} title={M.loadFailed(provider)} pending={waiting}>
      {renderSettings}
    </QueryGuard>
  );

  function renderSettings(data: NonNullable<typeof query.data>) {
    const picker = PICKERS[provider];
    const choices = (provider === 'eventbrite' ? data.organizations : data.lists) ?? [];
    const connected = data.provider.connected;

    return (
      <FormDrawer
        title={`${label} settings`}
        onSubmit={onSubmit}
        close={close}
        submitting={form.formState.isSubmitting}
      >
        <DrawerSection title="Connection">
          <SyncConnection provider={provider} state={data.provider} />
        </DrawerSection>
        <DrawerSection title="Settings">
          {picker ? (
            <FormField control={form.control} name={picker.name} label={picker.label}>
              {(field) => (
                <Select
                  id={picker.name}
                  value={field.value || undefined}
                  onChange={(v: string | undefined) => field.onChange(v ?? null)}
                  onBlur={field.onBlur}
                  allowClear
                  placeholder={picker.placeholder}
                  notFoundContent={connected ? 'Nothing to choose from' : M.notConnected(provider)}
                  options={pickerOptions(choices, field.value)}
                />
              )}
            </FormField>
          ) : null}
          {TOGGLES[provider].map((toggle) => (
            <FormField key={toggle.name} control={form.control} name={toggle.name} extra={toggle.extra}>
              {(field) => (
                <LabeledSwitch
                  label={toggle.label}
                  id={toggle.name}
                  checked={toggle.fixed ? true : Boolean(field.value)}
                  disabled={toggle.fixed}
                  onChange={(on) => field.onChange(on)}
                />
              )}
            </FormField>
          ))}
        </DrawerSection>
        <SyncActivitySection provider={provider} data={data} />
        {provider === 'eventbrite' ? <SyncConflictsSection data={data} /> : null}
      </FormDrawer>
    );
  }
}

export const EventbriteDrawer = (props: DrawerProps) => (
  <SyncProviderDrawer {...props} provider="eventbrite" />
);
export const MailchimpDrawer = (props: DrawerProps) => <SyncProviderDrawer {...props} provider="mailchimp" />;
export const KlaviyoDrawer = (props: DrawerProps) => <SyncProviderDrawer {...props} provider="klaviyo" />;
export const ZoomDrawer = (props: DrawerProps) => <SyncProviderDrawer {...props} provider="zoom" />;
