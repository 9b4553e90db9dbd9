import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { CourseScheduleReader, CourseScheduleSummary, emptySummary } from '../catalog/course-schedule.port';
import { Event } from './entities/event.entity';

/** Answers the catalog's questions about sessions with one grouped query. */
@Injectable()
export class SqlCourseScheduleReader implements CourseScheduleReader {
  constructor(private readonly em: EntityManager) {}

  async summaries(
    organizationId: string,
    activityIds: string[],
    withEvents: boolean,
  ): Promise<Map<string, CourseScheduleSummary>> {
    const result = new Map<string, CourseScheduleSummary>();
    if (activityIds.length === 0) return result;
    const rows: {
      activity_id: string;
      event_count: string;
      future_count: string;
      next_start: Date | null;
    }[] = await this.em.execute(
      `select activity_id,
                count(*) as event_count,
                count(*) filter (where starts_at > now()) as future_count,
                min(starts_at) filter (where starts_at > now()) as next_start
           from event
          where organization_id = ? and activity_id in (${activityIds.map(() => '?').join(', ')}) and status = 'active'
          group by activity_id`,
      [organizationId, ...activityIds],
    );
    for (const row of rows) {
      result.set(row.activity_id, {
        ...emptySummary(),
        event_count: Number(row.event_count),
        future_event_count: Number(row.future_count),
        next_start: row.next_start ? new Date(row.next_start) : null,
      });
    }
    if (withEvents) {
      const events = await this.em.find(
        Event,
        { organization: organizationId, activity: { $in: activityIds }, status: 'active' },
        { orderBy: { startsAt: 'asc' }, fields: ['id', 'activity', 'startsAt', 'endsAt'] },
      );
      for (const event of events) {
        const summary = result.get(event.activity.id);
        summary?.events.push({ event_id: event.id, starts_at: event.startsAt, ends_at: event.endsAt });
      }
    }
    return result;
  }
}
