import { EntityManager } from '@mikro-orm/postgresql';

export interface CourseSyncMapping {
  SyncProvider: { name: string; config_schema: { sync_all_courses: boolean } };
}

/**
 * READ-ONLY JOIN ACROSS MODULES, kept in this one file: the course read shows which sync
 * providers hold the course or one of its sessions (spec 000 §3: syncMappings[].SyncProvider with
 * name and config_schema.sync_all_courses). It reads the sync module's `sync_mapping` and
 * `sync_config` tables and never writes them; the catalog cannot import the sync module (which
 * depends on it). One row per provider; a cancelled mapping does not count.
 */
export async function courseSyncMappings(
  em: EntityManager,
  organizationId: string,
  activityId: string,
): Promise<CourseSyncMapping[]> {
  const rows = await em.getConnection().execute<{ provider: string; sync_all_courses: boolean | null }[]>(
    `select m.provider, bool_or(coalesce((c.config->>'sync_all_courses')::boolean, false)) as sync_all_courses
       from sync_mapping m
       left join sync_config c on c.organization_id = m.organization_id and c.provider = m.provider
      where m.organization_id = ? and m.stage <> 'cancelled'
        and ((m.local_type = 'activity' and m.local_id = ?)
          or (m.local_type = 'event' and m.local_id in (select e.id from event e where e.activity_id = ? and e.organization_id = ?)))
      group by m.provider
      order by m.provider`,
    [organizationId, activityId, activityId, organizationId],
  );
  return rows.map((r) => ({ SyncProvider: { name: r.provider, config_schema: { sync_all_courses: Boolean(r.sync_all_courses) } } }));
}
