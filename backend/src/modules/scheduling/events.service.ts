import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import { EventSchedulePayload, SCHEDULING_MESSAGES as M, wallClockToUtc } from '@studio/contracts';
import { ZodValidationException } from 'nestjs-zod';
import { z } from 'zod';
import { eventUpdateSchema, eventUpdateSchemaFor } from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { CoursesService } from '../catalog/courses.service';
import { ReferenceDataService } from '../catalog/reference-data.service';
import { Organization } from '../organizations/organization.entity';
import { EventDay } from './entities/event-day.entity';
import { Event } from './entities/event.entity';
import { lockEventForSeats, seatsTaken } from './seats';
import { SessionEvents } from './session-events';

/** A session as the sync module writes it to Eventbrite and Zoom. */
export interface SessionSyncView {
  id: string;
  activityId: string;
  courseName: string;
  name: string;
  status: 'active' | 'cancelled';
  capacity: number;
  priceCents: number;
  syncWithEventbrite: boolean;
  timezone: string;
  locationName: string;
  locationAddress: string;
  /** The location's classes happen online (they get a video meeting). */
  locationOnline: boolean;
  startsAt: Date;
  endsAt: Date;
  durationMins: number;
  meetingJoinUrl: string | null;
}

/** Sessions of scheduled courses: create from the Schedule Course drawer, read, edit, delete. */
@Injectable()
export class EventsService {
  constructor(
    private readonly em: EntityManager,
    private readonly courses: CoursesService,
    private readonly reference: ReferenceDataService,
    private readonly sessionEvents: SessionEvents,
  ) {}

  async requireEvent(ctx: RequestContext, id: string): Promise<Event> {
    const event = await this.em.findOne(
      Event,
      { id, organization: ctx.organizationId },
      { populate: ['days', 'location', 'instructor', 'activity.images.media'] },
    );
    if (!event) throw notFound('Event not found');
    return event;
  }

  async create(ctx: RequestContext, input: EventSchedulePayload): Promise<Event> {
    return this.createInTransaction(ctx, input);
  }

  /** Published in the transaction of the change (SessionEvents): the sync module syncs the session to its providers. */
  private async announceSaved(em: EntityManager, ctx: Pick<RequestContext, 'organizationId'>, event: Event, created: boolean) {
    await this.sessionEvents.publish(em, {
      type: 'session.saved',
      organizationId: ctx.organizationId,
      eventId: event.id,
      activityId: event.activity.id,
      created,
    });
  }

  private async createInTransaction(ctx: RequestContext, input: EventSchedulePayload): Promise<Event> {
    return this.em.transactional(async (em) => {
      const course = await this.courses.requireCourse(ctx, input.activity_id);
      // Appointment courses are booked by students at a time they pick (the booking issue): no dated sessions.
      if (course.activityType === 'appointment') {
        throw new ApiError(HttpStatus.BAD_REQUEST, M.appointmentNotSchedulable, {
          activity_id: M.appointmentNotSchedulable,
        });
      }
      const [location, instructor] = await Promise.all([
        this.reference.requireLocation(ctx, input.location_id),
        this.reference.requireInstructor(ctx, input.instructor_id),
      ]);
      // Each day is wall-clock time in the location's zone; its instants follow daylight saving.
      const days = input.dates.map((row, position) => {
        const startsAt = wallClockToUtc(row.date, row.time, location.timezone);
        if (!startsAt)
          throw new ApiError(HttpStatus.BAD_REQUEST, M.invalidDate, { [`dates.${position}`]: M.invalidDate });
        return { ...row, position, startsAt, endsAt: new Date(startsAt.getTime() + row.duration * 60000) };
      });
      const event = em.create(Event, {
        organization: em.getReference(Organization, ctx.organizationId),
        activity: course,
        name: input.course_name || course.name,
        internalShortDescription: input.internal_short_description || null,
        capacity: input.capacity ?? course.capacity,
        priceCents: input.price ?? course.priceCents,
        syncWithEventbrite: input.sync_with_eventbrite,
        location,
        instructor,
        startsAt: new Date(Math.min(...days.map((d) => d.startsAt.getTime()))),
        endsAt: new Date(Math.max(...days.map((d) => d.endsAt.getTime()))),
      });
      for (const day of days) {
        em.create(EventDay, {
          event,
          position: day.position,
          startDate: day.date,
          startTime: day.time,
          durationMins: day.duration,
          startsAt: day.startsAt,
          endsAt: day.endsAt,
        });
      }
      await em.flush();
      await this.announceSaved(em as EntityManager, ctx, event, true);
      return event;
    });
  }

  /**
   * Price and capacity apply to future orders only: existing orders keep what they paid. The
   * capacity is checked against the seats taken under the session's seat lock. A free session
   * (price 0) may leave its price out and stays free; a paid one needs a price above 0.
   */
  async update(ctx: RequestContext, id: string, body: z.output<typeof eventUpdateSchema>): Promise<Event> {
    return this.updateInTransaction(ctx, id, body);
  }

  private async updateInTransaction(ctx: RequestContext, id: string, body: z.output<typeof eventUpdateSchema>): Promise<Event> {
    return this.em.transactional(async (em) => {
      const seats = await lockEventForSeats(em, ctx, id);
      const event = await em.findOneOrFail(Event, { id: seats.eventId }, { refresh: true });
      const parsed = eventUpdateSchemaFor(event.priceCents === 0).safeParse(body);
      if (!parsed.success) throw new ZodValidationException(parsed.error);
      const input = parsed.data;
      if (input.capacity < seats.seats) {
        const message = M.capacityBelowSeats(seats.seats);
        throw new ApiError(HttpStatus.CONFLICT, message, { capacity: message });
      }
      event.capacity = input.capacity;
      if (input.price !== undefined) event.priceCents = input.price;
      if (input.internal_short_description !== undefined)
        event.internalShortDescription = input.internal_short_description || null;
      await em.flush();
      await this.announceSaved(em as EntityManager, ctx, event, false);
      return event;
    });
  }

  /** Refused while students are enrolled; answers the course to go back to. */
  async delete(ctx: RequestContext, id: string): Promise<string> {
    return this.deleteInTransaction(ctx, id);
  }

  private async deleteInTransaction(ctx: RequestContext, id: string): Promise<string> {
    return this.em.transactional(async (em) => {
      const seats = await lockEventForSeats(em, ctx, id);
      // A seat a payment link holds is a student on the way: the session stays.
      if (seats.students > 0 || seats.held > 0) throw new ApiError(HttpStatus.CONFLICT, M.deleteBlocked);
      const event = await em.findOneOrFail(Event, { id: seats.eventId }, { refresh: true });
      const activityId = event.activity.id;
      // Removed enrollments keep their history in orders; their rows go with the session.
      await em.execute(`delete from enrollment where event_id = ? and status = 'removed'`, [event.id]);
      em.remove(event);
      await em.flush();
      // With the removal: the sync module cancels the session's Eventbrite event and Zoom meeting.
      await this.sessionEvents.publish(em as EntityManager, { type: 'session.removed', organizationId: ctx.organizationId, eventId: id, activityId });
      return activityId;
    });
  }

  /**
   * A session as the sync module reads it to write it to a provider (ids only travel in its jobs);
   * null when it is gone or belongs to another organization.
   */
  async syncView(organizationId: string, id: string): Promise<SessionSyncView | null> {
    const event = await this.em.fork().findOne(
      Event,
      { id, organization: organizationId },
      { populate: ['days', 'location', 'activity'] },
    );
    if (!event) return null;
    return {
      id: event.id,
      activityId: event.activity.id,
      courseName: event.activity.name,
      name: event.name,
      status: event.status,
      capacity: event.capacity,
      priceCents: event.priceCents,
      syncWithEventbrite: event.syncWithEventbrite,
      timezone: event.location.timezone,
      locationName: event.location.name,
      locationAddress: event.location.address,
      locationOnline: event.location.online,
      startsAt: event.startsAt,
      endsAt: event.endsAt,
      durationMins: Math.max(1, Math.round((event.endsAt.getTime() - event.startsAt.getTime()) / 60000)),
      meetingJoinUrl: event.meetingJoinUrl ?? null,
    };
  }

  /** The course (activity id) of the organization's session, or null when it has no such session. */
  async activityOf(organizationId: string, eventId: string): Promise<string | null> {
    const [row] = await this.em.getConnection().execute<{ activity_id: string }[]>(
      `select activity_id from event where organization_id = ? and id = ?`,
      [organizationId, eventId],
    );
    return row?.activity_id ?? null;
  }

  /**
   * The course's next session still to end (the one a sale on a course-level ticketing event seats);
   * null when it has none.
   */
  async nextSessionOf(organizationId: string, activityId: string): Promise<string | null> {
    const [row] = await this.em.getConnection().execute<{ id: string }[]>(
      `select id from event where organization_id = ? and activity_id = ? and status = 'active' and ends_at > now()
        order by starts_at, id limit 1`,
      [organizationId, activityId],
    );
    return row?.id ?? null;
  }

  /**
   * The session's video meeting, as the sync module reports it: the join URL once the meeting is
   * made (null once it is removed), the summary once the meeting has taken place.
   */
  async attachMeeting(
    organizationId: string,
    id: string,
    meeting: { joinUrl?: string | null; summary?: string | null },
  ): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [];
    if (meeting.joinUrl !== undefined) {
      sets.push('meeting_join_url = ?');
      params.push(meeting.joinUrl);
    }
    if (meeting.summary !== undefined) {
      sets.push('meeting_summary = ?');
      params.push(meeting.summary);
    }
    if (sets.length === 0) return;
    await this.em.getConnection().execute(
      `update event set ${sets.join(', ')}, updated_at = now() where id = ? and organization_id = ?`,
      [...params, id, organizationId],
    );
  }

  async get(ctx: RequestContext, id: string) {
    const event = await this.requireEvent(ctx, id);
    const taken = (await seatsTaken(this.em, [event.id])).get(event.id) ?? { seats: 0, students: 0 };
    return mapEvent(event, taken);
  }
}

export function mapEvent(event: Event, taken: { seats: number; students: number }) {
  return {
    event_id: event.id,
    activity_id: event.activity.id,
    name: event.name,
    internal_short_description: event.internalShortDescription ?? null,
    capacity: event.capacity,
    price: event.priceCents,
    status: event.status,
    schedule: event.days
      .getItems()
      .map((d) => ({ start_date: d.startDate, start_time: d.startTime, duration: d.durationMins })),
    starts_at: event.startsAt.toISOString(),
    ends_at: event.endsAt.toISOString(),
    location_id: event.location.id,
    instructor_id: event.instructor.id,
    Location: { address: event.location.address, timezone: { timeZoneId: event.location.timezone } },
    Instructor: { first_name: event.instructor.firstName },
    is_featured: event.isFeatured,
    is_special_event: event.isSpecialEvent,
    sync_with_eventbrite: event.syncWithEventbrite,
    meeting_join_url: event.meetingJoinUrl ?? null,
    meeting_summary: event.meetingSummary ?? null,
    enrolled_count: taken.students,
    seats_taken: taken.seats,
    Activity: { name: event.activity.name, images: event.activity.images.getItems().map((i) => i.media.url) },
  };
}
