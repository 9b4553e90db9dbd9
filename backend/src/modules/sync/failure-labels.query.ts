import { EntityManager } from '@mikro-orm/postgresql';
import { formatDateTime, type SyncLocalType } from '@studio/contracts';

/**
 * READ-ONLY JOIN ACROSS MODULES, kept in this one file: the sync panel names each failed record
 * the way the admin knows it (a student by name, a session by course and time, an order by its
 * number) instead of by id. It reads the students, catalog, scheduling and orders tables and never
 * writes them; one query for the whole page of failures, scoped to the organization.
 */
export async function failureLabels(
  em: EntityManager,
  organizationId: string,
  records: { local_type: SyncLocalType; local_id: string }[],
): Promise<Map<string, string>> {
  if (!records.length) return new Map();
  const rows = await em
    .getConnection()
    .execute<
      {
        local_type: SyncLocalType;
        local_id: string;
        name: string | null;
        starts_at: Date | null;
        zone: string | null;
      }[]
    >(
      `with wanted as (select * from jsonb_to_recordset(?::jsonb) as w(local_type text, local_id uuid))
     select w.local_type, w.local_id::text as local_id,
       case w.local_type
         when 'student' then nullif(trim(s.first_name || ' ' || s.last_name), '')
         when 'activity' then a.name
         when 'event' then ev.name
         when 'enrollment' then nullif(trim(es.first_name || ' ' || es.last_name), '') || ', ' || eev.name
         when 'order' then 'Order #' || o.order_number
         when 'appointment' then nullif(trim(aps.first_name || ' ' || aps.last_name), '') || ', ' || apa.name
       end as name,
       case w.local_type when 'event' then ev.starts_at when 'enrollment' then eev.starts_at when 'appointment' then ap.starts_at end as starts_at,
       case w.local_type when 'event' then coalesce(evl.timezone, org.timezone)
                         when 'enrollment' then coalesce(eevl.timezone, org.timezone)
                         when 'appointment' then coalesce(apl.timezone, org.timezone) end as zone
     from wanted w
     join organization org on org.id = ?
     left join student s on w.local_type = 'student' and s.id = w.local_id and s.organization_id = org.id
     left join activity a on w.local_type = 'activity' and a.id = w.local_id and a.organization_id = org.id
     left join event ev on w.local_type = 'event' and ev.id = w.local_id and ev.organization_id = org.id
     left join location evl on evl.id = ev.location_id
     left join enrollment en on w.local_type = 'enrollment' and en.id = w.local_id and en.organization_id = org.id
     left join student es on es.id = en.student_id
     left join event eev on eev.id = en.event_id
     left join location eevl on eevl.id = eev.location_id
     left join customer_order o on w.local_type = 'order' and o.id = w.local_id and o.organization_id = org.id
     left join appointment ap on w.local_type = 'appointment' and ap.id = w.local_id and ap.organization_id = org.id
     left join student aps on aps.id = ap.student_id
     left join activity apa on apa.id = ap.activity_id
     left join location apl on apl.id = ap.location_id`,
      [JSON.stringify(records.map(({ local_type, local_id }) => ({ local_type, local_id }))), organizationId],
    );
  const labels = new Map<string, string>();
  for (const row of rows) {
    if (!row.name) continue;
    const when = row.starts_at && row.zone ? `, ${formatDateTime(row.starts_at, row.zone)}` : '';
    // At most 300 characters, as the answer declares (names are bounded, a name plus a time is not).
    labels.set(`${row.local_type}:${row.local_id}`, `${row.name}${when}`.slice(0, 300));
  }
  return labels;
}
