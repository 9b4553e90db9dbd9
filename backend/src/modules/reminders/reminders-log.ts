import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { reminderLogEntrySchema } from './reminders.dto';

type Entry = z.infer<typeof reminderLogEntrySchema>;

/** The reminder log as the student drawer reads it: the course and zone joined read-only from the booking. */
@Injectable()
export class RemindersLog {
  constructor(private readonly em: EntityManager) {}

  async forStudent(organizationId: string, studentId: string, limit = 100): Promise<Entry[]> {
    const rows = await this.em.execute<
      (Omit<Entry, 'starts_at' | 'sent_at' | 'to'> & { starts_at: Date | string; sent_at: Date | string; to_address: string | null })[]
    >(
      `select r.id, r.booking_kind, r.booking_id, coalesce(ea.name, aa.name) as course_name,
              coalesce(el.timezone, al.timezone) as time_zone, r.offset_mins, r.starts_at, r.sent_at,
              r.to_address, r.outcome, r.detail
         from reminder_log r
         left join enrollment en on r.booking_kind = 'enrollment' and en.id = r.booking_id
         left join event ev on ev.id = en.event_id
         left join activity ea on ea.id = ev.activity_id
         left join location el on el.id = ev.location_id
         left join appointment ap on r.booking_kind = 'appointment' and ap.id = r.booking_id
         left join activity aa on aa.id = ap.activity_id
         left join location al on al.id = ap.location_id
        where r.organization_id = ? and r.student_id = ?
        order by r.sent_at desc, r.id desc
        limit ?`,
      [organizationId, studentId, limit],
    );
    return rows.map(({ to_address, ...row }) => ({
      ...row,
      offset_mins: Number(row.offset_mins),
      starts_at: new Date(row.starts_at).toISOString(),
      sent_at: new Date(row.sent_at).toISOString(),
      to: to_address,
    }));
  }
}
