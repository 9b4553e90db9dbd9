import type { ReminderSettingsPayload, StoreSettingsPayload, WaitlistSettingsPayload } from '@studio/contracts';
import { $api, answer, api, useMutation, useQueryClient, useSession, type SessionUser } from '@studio/ui';

/* Organizations a super admin may switch to (spec 001 §6): read and switched only by this remote. */
const LIST = '/api/super-admin/organization';
/* The caller's organization (Settings → Organization, issue 21). */
const SETTINGS = '/api/admin/org';

export const organizationKeys = {
  lists: () => ['get', LIST] as const,
  settings: () => ['get', SETTINGS] as const,
};
export const organizationQueries = {
  list: () => $api.queryOptions('get', LIST),
  settings: () => $api.queryOptions('get', SETTINGS),
};

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

/**
 * PUT /api/admin/org/store (owner or super admin): the store's address and, optionally, the
 * studio's own site. The organization as answered replaces the cached one, and the session reads
 * again, so the Share drawer's links and Preview (usePublicHost: the session's store_url) follow
 * at once.
 */
export function useSaveStoreSettings() {
  const queryClient = useQueryClient();
  const { refresh } = useSession();
  return useMutation({
    mutationFn: (body: StoreSettingsPayload) => answer(api.PUT('/api/admin/org/store', { body })),
    onSuccess: async (answered) => {
      queryClient.setQueryData(organizationQueries.settings().queryKey, answered);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: organizationKeys.settings() }),
        refresh(),
      ]);
    },
  });
}

/**
 * PUT /api/admin/org/reminders (owner or super admin): the reminder mails' times before a class or
 * appointment. The organization as answered replaces the cached one.
 */
export function useSaveReminderSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReminderSettingsPayload) => answer(api.PUT('/api/admin/org/reminders', { body })),
    onSuccess: (answered) => queryClient.setQueryData(organizationQueries.settings().queryKey, answered),
  });
}

/**
 * PUT /api/admin/org/waitlist (owner or super admin): how long a waitlist offer holds its seats
 * (issue 23). The organization as answered replaces the cached one.
 */
export function useSaveWaitlistSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WaitlistSettingsPayload) => answer(api.PUT('/api/admin/org/waitlist', { body })),
    onSuccess: async (answered) => {
      queryClient.setQueryData(organizationQueries.settings().queryKey, answered);
      await queryClient.invalidateQueries({ queryKey: organizationKeys.settings() });
    },
  });
}
