import { useForm, type Resolver } from 'react-hook-form';
import { storeSettingsSchema, type paths, type StoreSettingsPayload } from '@studio/contracts';
import {
  busy,
  Alert,
  App,
  Button,
  Flex,
  Form,
  FormField,
  Input,
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
import { organizationQueries, useSaveStoreSettings } from '../api/organizations';

export const ORGANIZATION_TEXTS = {
  title: 'Organization',
  loadFailed: 'Could not load the organization',
  saved: 'Store address saved',
  saveFailed: 'Could not save the store address',
  ownerOnly: "Only the studio's owner can change the store address.",
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

/**
 * What goes before the slug: the built-in store's address without it (`http://host/s/`), read from
 * store_url while the studio names no site of its own; with its own site the built-in address is
 * not in the answer, so only the path shows.
 */
function slugPrefix(org: { slug: string; public_url: string | null; store_url: string }): string {
  const tail = `/s/${org.slug}`;
  if (!org.public_url && org.store_url.endsWith(tail)) return org.store_url.slice(0, -org.slug.length);
  return '/s/';
}

/** /admin/settings/organization: where the studio's store is (its address, or the studio's own site). */
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
    </Flex>
  );
}
