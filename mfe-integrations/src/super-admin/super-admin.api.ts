import {
  apiFetch,
  type OrganizationListResponse,
  type OrganizationSummary,
  type SessionUser,
} from '@studio/ui';

export async function fetchOrganizations(): Promise<OrganizationSummary[]> {
  const answer = await apiFetch<OrganizationListResponse>('/api/super-admin/organization');
  return [...(answer.organizations ?? [])].sort((a, b) => a.name.localeCompare(b.name));
}

export function switchOrganization(orgId: string): Promise<SessionUser> {
  return apiFetch<SessionUser>('/api/super-admin/user', { method: 'PUT', body: { org_id: orgId } });
}

/** Indirection so tests can observe the reload that follows a switch (spec 001 §4). */
export const page = { reload: () => window.location.reload() };
