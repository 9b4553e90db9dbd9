import { answer, api, type SessionUser } from '@studio/ui';

export function switchOrganization(orgId: string): Promise<SessionUser> {
  return answer(api.PUT('/api/super-admin/user', { body: { org_id: orgId } }));
}

/** Indirection so tests can observe the reload that follows a switch (spec 001 §4). */
export const page = { reload: () => window.location.reload() };
