import { useEffect } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import {
  storeSettingsSchema,
  waitlistSettingsSchema,
  type paths,
  type StoreSettingsPayload,
  type WaitlistSettingsPayload,
} from '@studio/contracts';
import {
  busy,
  Alert,
  App,
  Button,
  Divider,
  Flex,
  Form,
  FormField,
  Input,
  NumberField,
  PageFrame,
  QueryGuard,
  Space,
  Typography,
  serverMessage,
  setServerFieldErrors,
  useQuery,
  useSession,
  zodResolver,
} from '@studio/ui';
import { organizationQueries, useSaveStoreSettings, useSaveWaitlistSettings } from '../api/organizations';
import { ReminderSettings } from './reminder-settings';

export const ORGANIZATION_TEXTS = {
  title: 'Organization',
  loadFailed: 'Could not load the organization',
  saved: 'Store address saved',
  saveFailed: 'Could not save the store address',
  ownerOnly: "Only the studio's owner can change the store address.",
  waitlistTitle: 'Waitlist',
  waitlistSaved: 'Waitlist settings saved',
  waitlistSaveFailed: 'Could not save the waitlist settings',
} as const;

/** GET /api/admin/org: the organization, with its store's address. */
type OrgSettings = paths['/api/admin/org']['get']['responses'][200]['content']['application/json'];

/** What the form edits: the API's fields as typed (the rule trims them and turns '' into null). */
interface StoreForm {
  slug: string;
  public_url: string;
}

// The rule reads public_url as unknown (it turns '' into null); the form holds the text typed.
const resolver = zodResolver(storeSettingsSchema) as unknown as Resolver<
  StoreForm,
  unknown,
  StoreSettingsPayload
>;

const toForm = (org: { slug: string; public_url: string | null }): StoreForm => ({
  slug: org.slug,
  public_url: org.public_url ?? '',
});

type StoreAddresses = { slug: string; store_url: string; app_store_url: string };

/** What goes before the slug: this app's store address without it (`http://host/s/`). */
function slugPrefix(org: StoreAddresses): string {
  return org.app_store_url.endsWith(`/s/${org.slug}`) ? org.app_store_url.slice(0, -org.slug.length) : '/s/';
}

/** This app's address (PUBLIC_APP_URL), where the checkout overlay's script is served. */
export function appAddress(org: StoreAddresses): string {
  const tail = `/s/${org.slug}`;
  return org.app_store_url.endsWith(tail) ? org.app_store_url.slice(0, -tail.length) : window.location.origin;
}

/** The header code a studio pastes into its site, and an overlay link to go with it. */
export function overlaySnippet(org: StoreAddresses) {
  const store = org.store_url.replace(/\/+$/, '');
  return {
    script: `<script src="${appAddress(org)}/checkout-overlay.js" defer></script>`,
    link: `<a href="${store}/activity/COURSE_ID?openModal=true">Book now</a>`,
  };
}

/**
 * The checkout overlay's instructions with this studio's real addresses (the Share drawer's
 * "Read the docs" leads here): the header code, an example link, and the purchase event.
 */
function CheckoutOverlay({ org }: { org: OrgSettings }) {
  const snippet = overlaySnippet(org);
  useEffect(() => {
    // The Share drawer's "Read the docs" opens this page at #checkout-overlay.
    if (window.location.hash === '#checkout-overlay')
      document.getElementById('checkout-overlay')?.scrollIntoView();
  }, []);
  return (
    <section id="checkout-overlay" aria-labelledby="checkout-overlay-title">
      <Typography.Title level={2} id="checkout-overlay-title" style={{ fontSize: 20 }}>
        Checkout overlay
      </Typography.Title>
      <Typography.Paragraph>
        Checkout overlay links (the Share drawer&apos;s Checkout overlay tab) open your store over your own
        website, so customers book without leaving your page. Add this line inside the{' '}
        <code>&lt;head&gt;</code> of every page that shows one:
      </Typography.Paragraph>
      <Typography.Paragraph copyable={{ text: snippet.script, tooltips: ['Copy header code', 'Copied'] }}>
        <code aria-label="Header code">{snippet.script}</code>
      </Typography.Paragraph>
      <Typography.Paragraph>
        Then use an overlay link on a button or a text link, for example (copy the real link of a course, a
        course date or a product from its Share drawer):
      </Typography.Paragraph>
      <Typography.Paragraph copyable={{ text: snippet.link, tooltips: ['Copy example link', 'Copied'] }}>
        <code aria-label="Example link">{snippet.link}</code>
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">
        When a purchase completes, your page receives the <code>studio:purchase-complete</code> event on{' '}
        <code>document</code>, with the order number in <code>event.detail.order_number</code>. Payments
        through Stripe open in the whole window, and the customer comes back to your store&apos;s confirmation
        page. Without the header code an overlay link opens the store page itself.
      </Typography.Paragraph>
    </section>
  );
}

/** /admin/settings/organization: where the studio's store is (its address, or the studio's own site), and the reminder emails' times. */
export function OrganizationPage() {
  const query = useQuery(organizationQueries.settings());
  return (
    <PageFrame title={ORGANIZATION_TEXTS.title}>
      <QueryGuard query={query} title={ORGANIZATION_TEXTS.loadFailed}>
        {(org) => <StoreSettingsForm org={org} />}
      </QueryGuard>
    </PageFrame>
  );
}

function StoreSettingsForm({ org }: { org: OrgSettings }) {
  const { message } = App.useApp();
  const role = useSession().session?.user.role;
  const canEdit = role === 'owner' || role === 'super_admin';
  const form = useForm<StoreForm, unknown, StoreSettingsPayload>({
    resolver,
    defaultValues: toForm(org),
  });
  const { control, setError } = form;
  const save = useSaveStoreSettings();

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      form.reset(toForm(saved));
      message.success(ORGANIZATION_TEXTS.saved);
    } catch (error) {
      console.error('Saving the store address failed', error);
      if (!setServerFieldErrors(error, setError, ['slug', 'public_url']))
        message.error(serverMessage(error, ORGANIZATION_TEXTS.saveFailed));
    }
  });

  return (
    <Flex vertical gap={16}>
      <div>
        <Typography.Text type="secondary">Your store is at </Typography.Text>
        <a href={org.store_url} target="_blank" rel="noopener noreferrer" aria-label="Open your store">
          {org.store_url}
        </a>
      </div>
      {canEdit ? null : <Alert type="info" showIcon title={ORGANIZATION_TEXTS.ownerOnly} />}
      <form onSubmit={onSubmit} aria-label="Store settings" noValidate>
        <Form layout="vertical" component={false}>
          <FormField
            control={control}
            name="slug"
            label="Store address"
            required
            extra="2 to 40 lowercase letters, numbers and single hyphens."
          >
            {(field) => (
              <Space.Compact block>
                <Space.Addon>{slugPrefix(org)}</Space.Addon>
                <Input {...field} id="slug" readOnly={!canEdit} autoComplete="off" spellCheck={false} />
              </Space.Compact>
            )}
          </FormField>
          <FormField
            control={control}
            name="public_url"
            label="Your own site (optional)"
            extra="Share links, Preview and payment return addresses use it instead of the store address."
          >
            {(field) => (
              <Input
                {...field}
                id="public_url"
                type="url"
                placeholder="https://"
                readOnly={!canEdit}
                autoComplete="url"
              />
            )}
          </FormField>
          {canEdit ? (
            <Button type="primary" htmlType="submit" loading={busy(form.formState.isSubmitting)}>
              Save
            </Button>
          ) : null}
        </Form>
      </form>
      <Divider />
      <ReminderSettings offsets={org.reminder_offsets_mins} canEdit={canEdit} />
      <Divider />
      <WaitlistSettingsForm org={org} canEdit={canEdit} />
      <Divider />
      <CheckoutOverlay org={org} />
    </Flex>
  );
}

interface WaitlistForm {
  waitlist_claim_hours: number | '';
}

const waitlistResolver = zodResolver(waitlistSettingsSchema) as unknown as Resolver<WaitlistForm, unknown, WaitlistSettingsPayload>;

/**
 * The waitlist's claim time (issue 23): when seats of a sold-out session free up, the first waiting
 * party that fits is mailed a claim link and the seats are held for it this many hours.
 */
function WaitlistSettingsForm({ org, canEdit }: { org: OrgSettings; canEdit: boolean }) {
  const { message } = App.useApp();
  const form = useForm<WaitlistForm, unknown, WaitlistSettingsPayload>({
    resolver: waitlistResolver,
    defaultValues: { waitlist_claim_hours: org.waitlist_claim_hours },
  });
  const save = useSaveWaitlistSettings();
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      form.reset({ waitlist_claim_hours: saved.waitlist_claim_hours });
      message.success(ORGANIZATION_TEXTS.waitlistSaved);
    } catch (error) {
      console.error('Saving the waitlist settings failed', error);
      if (!setServerFieldErrors(error, form.setError, ['waitlist_claim_hours']))
        message.error(serverMessage(error, ORGANIZATION_TEXTS.waitlistSaveFailed));
    }
  });
  return (
    <section aria-labelledby="waitlist-settings-title">
      <Typography.Title level={2} id="waitlist-settings-title" style={{ fontSize: 20 }}>
        {ORGANIZATION_TEXTS.waitlistTitle}
      </Typography.Title>
      <form onSubmit={onSubmit} aria-label="Waitlist settings" noValidate>
        <Form layout="vertical" component={false}>
          <NumberField
            control={form.control}
            name="waitlist_claim_hours"
            label="Claim time (hours)"
            required
            extra="When seats of a sold-out session free up, the first person waiting who fits is emailed a claim link and the seats are held for them this long (1 to 168 hours)."
          />
          {canEdit ? (
            <Button type="primary" htmlType="submit" loading={busy(form.formState.isSubmitting)}>
              Save waitlist settings
            </Button>
          ) : null}
        </Form>
      </form>
    </section>
  );
}
