import { $api, answer, api, useMutation, type SessionUser } from '@studio/ui';

/* Organizations a super admin may switch to (spec 001 §6): read and switched only by this remote. */
const LIST = '/api/super-admin/organization';

export const organizationKeys = { lists: () => ['get', LIST] as const };
export const organizationQueries = { list: () => $api.queryOptions('get', LIST) };

/** Indirection so tests can observe the reload that follows a switch (spec 001 §4). */
export const page = { reload: () => window.location.reload() };

/**
 * PUT /api/super-admin/user: switches the caller's organization. Nothing cached survives it: every
 * open view belongs to the old organization, so the caller reloads the page (after its toast).
 */
export function useSwitchOrganization() {
  return useMutation({
    mutationFn: (orgId: string): Promise<SessionUser> =>
      answer(api.PUT('/api/super-admin/user', { body: { org_id: orgId } })),
  });
}
