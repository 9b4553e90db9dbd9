import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { RequestContext } from '../../common/request-context';
import { CoursesService } from '../catalog/courses.service';
import { Event } from './entities/event.entity';
import { seatsTaken } from './seats';

/** The sessions of a course for the course detail page and the share drawer. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly em: EntityManager,
    private readonly courses: CoursesService,
  ) {}

  async listForCourse(ctx: RequestContext, activityId: string, includePast: boolean, limit: number, includeCancelled = false) {
    await this.courses.requireCourse(ctx, activityId);
    const events = await this.em.find(
      Event,
      {
        organization: ctx.organizationId,
        activity: activityId,
        status: includeCancelled ? { $in: ['active', 'cancelled'] } : 'active',
        ...(includePast ? {} : { endsAt: { $gt: new Date() } }),
      },
      { populate: ['location', 'days'], orderBy: { startsAt: 'asc', id: 'asc' }, limit },
    );
    const taken = await seatsTaken(
      this.em,
      events.map((e) => e.id),
    );
    return events.map((event) => mapSession(event, taken.get(event.id)?.seats ?? 0));
  }
}

export function sessionBadge(
  endsAt: Date,
  enrolled: number,
  capacity: number,
  now = new Date(),
  status: 'active' | 'cancelled' = 'active',
): 'Cancelled' | 'Finished' | 'At capacity' | 'Open' {
  if (status === 'cancelled') return 'Cancelled';
  if (endsAt.getTime() <= now.getTime()) return 'Finished';
  if (enrolled >= capacity) return 'At capacity';
  return 'Open';
}

export function mapSession(event: Event, enrolled: number) {
  return {
    event_id: event.id,
    name: event.name,
    start: event.startsAt.toISOString(),
    end: event.endsAt.toISOString(),
    internal_short_description: event.internalShortDescription ?? null,
    capacity: event.capacity,
    enrolled,
    price: event.priceCents,
    badge: sessionBadge(event.endsAt, enrolled, event.capacity, new Date(), event.status),
    Location: { address: event.location.address, timezone: { timeZoneId: event.location.timezone } },
    schedule: event.days
      .getItems()
      .map((d) => ({ start_date: d.startDate, start_time: d.startTime, duration: d.durationMins })),
  };
}
