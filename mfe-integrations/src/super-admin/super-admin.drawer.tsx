import { useForm } from 'react-hook-form';
import { MESSAGES, switchOrganizationSchema, type SwitchOrganizationInput } from '@studio/contracts';
import {
  App,
  DrawerSection,
  FormField,
  QueryGuard,
  Select,
  useQuery,
  useSession,
  useSkeletonDelay,
  useUnsavedChanges,
  zodResolver,
  type DrawerProps,
  FormDrawer,
} from '@studio/ui';
import { organizationQueries, page, useSwitchOrganization } from '../api/organizations';

const RELOAD_AFTER_MS = 600;

/** Super Admin Settings: lists every organization by name and switches the caller's account to one. */
export function SuperAdminDrawer({ close }: DrawerProps) {
  const { message } = App.useApp();
  const { session } = useSession();
  const waiting = useSkeletonDelay();
  // Sorted by name (spec 001 §6).
  const query = useQuery({
    ...organizationQueries.list(),
    select: (answer) => [...answer.organizations].sort((a, b) => a.name.localeCompare(b.name)),
  });
  const form = useForm<SwitchOrganizationInput>({
    resolver: zodResolver(switchOrganizationSchema),
    defaultValues: { org_id: session?.user.organization_id ?? '' },
  });
  // Closing with unsaved changes asks "Discard unsaved changes?" first (the drawer host consults this).
  useUnsavedChanges(form.formState.isDirty);

  const switchOrg = useSwitchOrganization();
  const onSubmit = form.handleSubmit(async ({ org_id }) => {
    try {
      await switchOrg.mutateAsync(org_id);
      // Saved: nothing is unsaved any more, so the reload asks no "Leave site?" (issue 25).
      form.reset({ org_id });
      message.success(MESSAGES.superAdmin.switched);
      // Reload once the toast has been seen: every open view belongs to the old organization.
      setTimeout(() => page.reload(), RELOAD_AFTER_MS);
    } catch (error) {
      console.error('Organization switch failed', error);
      message.error(MESSAGES.superAdmin.switchFailed);
    }
  });

  return (
    <QueryGuard query={query} title="Could not load organizations" pending={waiting}>
      {renderOrganizations}
    </QueryGuard>
  );

  function renderOrganizations(organizations: NonNullable<typeof query.data>) {
    return (
      <FormDrawer
        title="Super Admin Settings"
        onSubmit={onSubmit}
        close={close}
        submitting={form.formState.isSubmitting}
      >
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
                options={organizations.map((org) => ({
                  value: org.organization_id,
                  label: org.name,
                }))}
              />
            )}
          </FormField>
        </DrawerSection>
      </FormDrawer>
    );
  }
}
