import type { EntityManager } from '@mikro-orm/postgresql';
import type { SyncProviderName } from '@studio/contracts';

/**
 * Records students a batch job put on a provider's list: each student's own mapping (local_type
 * 'student') gets the provider's id (Mailchimp's subscriber hash, Klaviyo's profile id), stage
 * synced and the time. One statement per page; re-running it only refreshes the rows.
 */
export async function recordStudentsSynced(
  em: EntityManager,
  organizationId: string,
  provider: SyncProviderName,
  rows: { studentId: string; remoteId: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  const values = rows
    .map(() => `(gen_random_uuid(), ?::uuid, ?, 'student', ?::uuid, ?, 'synced', now())`)
    .join(', ');
  await em.getConnection().execute(
    `insert into sync_mapping (id, organization_id, provider, local_type, local_id, remote_id, stage, last_synced_at)
     values ${values}
     on conflict (organization_id, provider, local_type, local_id)
     do update set remote_id = excluded.remote_id, stage = 'synced', last_error = null,
       last_synced_at = now(), updated_at = now()`,
    rows.flatMap((r) => [organizationId, provider, r.studentId, r.remoteId]),
  );
}

/** Records students the provider refused in a batch (an address it will not take): failed, with its reason. */
export async function recordStudentsFailed(
  em: EntityManager,
  organizationId: string,
  provider: SyncProviderName,
  rows: { studentId: string; error: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  const values = rows
    .map(() => `(gen_random_uuid(), ?::uuid, ?, 'student', ?::uuid, 'failed', ?)`)
    .join(', ');
  await em.getConnection().execute(
    `insert into sync_mapping (id, organization_id, provider, local_type, local_id, stage, last_error)
     values ${values}
     on conflict (organization_id, provider, local_type, local_id)
     do update set stage = 'failed', last_error = excluded.last_error, updated_at = now()`,
    rows.flatMap((r) => [organizationId, provider, r.studentId, r.error.slice(0, 2000)]),
  );
}
