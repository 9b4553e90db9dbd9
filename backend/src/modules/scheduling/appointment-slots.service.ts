import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  APPOINTMENT_MESSAGES as M,
  availabilitySchema,
  bookingWindowEnd,
  computeSlots,
  groupSlotsByDate,
  type Availability,
  type SlotsOut,
  type SlotsQuery,
} from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { PUBLISHED_COURSE } from '../organizations/published-courses.query';
import type { BusyInterval } from './busy-intervals.query';
import { AppointmentsService } from './appointments.service';

const MINUTE = 60_000;
/** How far past the asked range the busy read reaches beyond buffers and duration (a zone's offset, a change of it). */
const BUSY_MARGIN_MINS = 240;

interface SlotCourseRow {
  activity_type: 'scheduled' | 'appointment';
  instructor_id: string | null;
  timezone: string;
  duration_mins: number;
  buffer_before_mins: number;
  buffer_after_mins: number;
  min_notice_mins: number;
  start_time_increments_mins: number;
  booking_window_days: number;
  course_availability: unknown;
  instructor_availability: unknown;
}

/** Stored availability read back through the schema; anything unreadable counts as none. */
function readAvailability(stored: unknown): Availability | null {
  if (stored === null || stored === undefined) return null;
  const parsed = availabilitySchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/**
 * The free start times of an appointment course (issue 22): the course's hours (else its
 * instructor's) in the location's zone, minus the instructor's busy time (every appointment of any
 * course of theirs with its buffers, every session day), by the one slot engine (computeSlots).
 */
@Injectable()
export class AppointmentSlotsService {
  constructor(
    private readonly em: EntityManager,
    private readonly appointments: AppointmentsService,
  ) {}

  /**
   * The slots of the organization's course in [from, to). `published`: only a course the store
   * lists (the public call); otherwise any course of the organization. 404 for none; 400 for a
   * scheduled course.
   */
  async slots(organizationId: string, activityId: string, query: SlotsQuery, options: { published: boolean }): Promise<SlotsOut> {
    const em = this.em.fork();
    const course = await this.course(em, organizationId, activityId, options.published);
    const zone = course.timezone;
    const displayZone = query.tz ?? zone;
    const from = new Date(query.from);
    const to = new Date(query.to);
    const starts = await this.startsIn(em, organizationId, course, from, to, () => true);
    return {
      zone,
      display_zone: displayZone,
      slots: starts.map((s) => ({ starts_at: s.toISOString(), ends_at: new Date(s.getTime() + course.duration_mins * MINUTE).toISOString() })),
      days: groupSlotsByDate(starts, displayZone).map((d) => ({ date: d.date, slots: d.slots.map((s) => s.toISOString()) })),
    };
  }

  /**
   * Whether the store may book `startsAt` of the organization's published appointment course now
   * (the booking check of the store's checkout, issue 22): 'offered' when the engine offers it;
   * 'taken' when only another appointment stands in its way (the loser of a race, or a time taken
   * since the page was shown); 'not_offered' otherwise (outside the hours, too soon, past the
   * window, a session of the instructor). 404 / 400 as the slots call.
   */
  async offerState(organizationId: string, activityId: string, startsAt: Date): Promise<'offered' | 'taken' | 'not_offered'> {
    const em = this.em.fork();
    const course = await this.course(em, organizationId, activityId, true);
    const to = new Date(startsAt.getTime() + 1);
    let sawBusy = false;
    const offered = await this.startsIn(em, organizationId, course, startsAt, to, () => true, (busy) => (sawBusy = busy.length > 0));
    if (offered.some((s) => s.getTime() === startsAt.getTime())) return 'offered';
    if (!sawBusy) return 'not_offered';
    const withoutAppointments = await this.startsIn(em, organizationId, course, startsAt, to, (b) => b.source !== 'appointment');
    return withoutAppointments.some((s) => s.getTime() === startsAt.getTime()) ? 'taken' : 'not_offered';
  }

  /** The course as the engine needs it: 404 for none (or, `published`, one the store does not list); 400 for a scheduled course. */
  private async course(em: EntityManager, organizationId: string, activityId: string, published: boolean): Promise<SlotCourseRow> {
    const [course] = await em.execute<SlotCourseRow[]>(
      `select a.activity_type, a.instructor_id, l.timezone, a.duration_mins, a.buffer_before_mins, a.buffer_after_mins,
              a.min_notice_mins, a.start_time_increments_mins, a.booking_window_days,
              a.availability as course_availability, i.availability as instructor_availability
         from activity a
         join location l on l.id = a.location_id
         left join instructor i on i.id = a.instructor_id and i.organization_id = a.organization_id
        where a.organization_id = ? and a.id = ?${published ? ` and ${PUBLISHED_COURSE}` : ''}`,
      [organizationId, activityId],
    );
    if (!course) throw notFound(M.courseNotFound);
    if (course.activity_type !== 'appointment') throw new ApiError(HttpStatus.BAD_REQUEST, M.notAppointmentCourse);
    return course;
  }

  /** The engine's starts of the course in [from, to), the instructor's busy time read once (`keep` filters it). */
  private async startsIn(
    em: EntityManager,
    organizationId: string,
    course: SlotCourseRow,
    from: Date,
    to: Date,
    keep: (busy: BusyInterval) => boolean,
    onBusy?: (busy: BusyInterval[]) => void,
  ): Promise<Date[]> {
    const zone = course.timezone;
    const availability = readAvailability(course.course_availability) ?? readAvailability(course.instructor_availability);
    if (!availability || !course.instructor_id) return [];
    const now = new Date();
    const before = course.buffer_before_mins;
    const after = course.buffer_after_mins;
    const duration = course.duration_mins;
    const windowEnd = bookingWindowEnd(now, course.booking_window_days, zone);
    const readFrom = new Date(from.getTime() - (before + BUSY_MARGIN_MINS) * MINUTE);
    const readTo = new Date(Math.min(to.getTime(), windowEnd.getTime()) + (duration + after + BUSY_MARGIN_MINS) * MINUTE);
    const busy = readFrom < readTo ? await this.appointments.busyIntervals(em, organizationId, course.instructor_id, readFrom, readTo) : [];
    onBusy?.(busy);
    return computeSlots({
      weekly: availability.weekly,
      overrides: availability.overrides,
      zone,
      durationMins: duration,
      bufferBeforeMins: before,
      bufferAfterMins: after,
      incrementMins: course.start_time_increments_mins,
      minNoticeMins: course.min_notice_mins,
      windowDays: course.booking_window_days,
      now,
      from,
      to,
      busy: busy.filter(keep),
    });
  }
}
