import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { MESSAGES, switchOrganizationSchema, type SwitchOrganizationInput } from '@studio/contracts';
import {
  App,
  Button,
  DrawerSection,
  DrawerShell,
  Form,
  FormField,
  LoadingSkeleton,
  Result,
  Select,
  useSession,
  useSkeletonDelay,
  zodResolver,
  type DrawerProps,
  type OrganizationSummary,
} from '@studio/ui';
import { fetchOrganizations, page, switchOrganization } from './super-admin.api';

const RELOAD_AFTER_MS = 600;

type LoadState =
  { status: 'loading' } | { status: 'failed' } | { status: 'ready'; organizations: OrganizationSummary[] };

/** Super Admin Settings: lists every organization by name and switches the caller's account to one. */
export function SuperAdminDrawer({ close }: DrawerProps) {
  const { message } = App.useApp();
  const { session } = useSession();
  const waiting = useSkeletonDelay();
  const [load, setLoad] = useState<LoadState>({ status: 'loading' });
  const form = useForm<SwitchOrganizationInput>({
    resolver: zodResolver(switchOrganizationSchema),
    defaultValues: { org_id: session?.user.organization_id ?? '' },
  });

  useEffect(() => {
    fetchOrganizations()
      .then((organizations) => setLoad({ status: 'ready', organizations }))
      .catch((error: unknown) => {
        console.error('Could not load organizations', error);
        setLoad({ status: 'failed' });
      });
  }, []);

  const onSubmit = form.handleSubmit(async ({ org_id }) => {
    try {
      await switchOrganization(org_id);
      message.success(MESSAGES.superAdmin.switched);
      // Reload once the toast has been seen: every open view belongs to the old organization.
      setTimeout(() => page.reload(), RELOAD_AFTER_MS);
    } catch (error) {
      console.error('Organization switch failed', error);
      message.error(MESSAGES.superAdmin.switchFailed);
    }
  });

  if (load.status === 'loading' || waiting) return <LoadingSkeleton />;
  if (load.status === 'failed') return <Result status="error" title="Could not load organizations" />;

  return (
    <form onSubmit={onSubmit} aria-label="Super Admin Settings">
      <DrawerShell
        title="Super Admin Settings"
        footer={
          <>
            <Button onClick={close}>Cancel</Button>
            <Button type="primary" htmlType="submit" loading={form.formState.isSubmitting}>
              Save
            </Button>
          </>
        }
      >
        <Form layout="vertical" component={false}>
          <DrawerSection title="Organization">
            <FormField control={form.control} name="org_id" label="Organization you administer">
              {(field) => (
                <Select
                  id="org_id"
                  value={field.value || undefined}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  placeholder="Select an organization"
                  showSearch={{ optionFilterProp: 'label' }}
                  options={load.organizations.map((org) => ({
                    value: org.organization_id,
                    label: org.name,
                  }))}
                />
              )}
            </FormField>
          </DrawerSection>
        </Form>
      </DrawerShell>
    </form>
  );
}
