import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  APPOINTMENT_MESSAGES as M,
  availabilitySchema,
  bookingWindowEnd,
  computeSlots,
  groupSlotsByDate,
  isSlotOffered,
  type Availability,
  type SlotsOut,
  type SlotsQuery,
} from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { PUBLISHED_COURSE } from '../organizations/published-courses.query';
import { AppointmentReads } from './appointment-reads';
import { Clock } from '../../common/clock';

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
    private readonly appointments: AppointmentReads,
    private readonly clock: Clock,
  ) {}

  /** The course's row the slot engine needs (404 for none; 400 for a scheduled course). */
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

  /**
   * The slot engine's input for the course over [from, to) (busy time read with margins), or null
   * when it offers nothing (no hours, no instructor). `ignoreAppointmentId`: that appointment's own
   * time is not busy (moving it).
   */
  private async engineInput(
    em: EntityManager,
    organizationId: string,
    course: SlotCourseRow,
    from: Date,
    to: Date,
    now: Date,
    ignoreAppointmentId?: string,
  ) {
    const availability = readAvailability(course.course_availability) ?? readAvailability(course.instructor_availability);
    if (!availability || !course.instructor_id) return null;
    const zone = course.timezone;
    const before = course.buffer_before_mins;
    const after = course.buffer_after_mins;
    const duration = course.duration_mins;
    const windowEnd = bookingWindowEnd(now, course.booking_window_days, zone);
    const readFrom = new Date(from.getTime() - (before + BUSY_MARGIN_MINS) * MINUTE);
    const readTo = new Date(Math.min(to.getTime(), windowEnd.getTime()) + (duration + after + BUSY_MARGIN_MINS) * MINUTE);
    const busy = (readFrom < readTo ? await this.appointments.busyIntervals(em, organizationId, course.instructor_id, readFrom, readTo) : []).filter(
      (b) => !(b.source === 'appointment' && b.id === ignoreAppointmentId),
    );
    return {
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
      busy,
    };
  }

  /**
   * The booking check of the admin's hold and move (issue 22): whether the slot engine offers `start`
   * for the course now, by the same rules as the slots call (hours, notice, window, increments, the
   * instructor's busy time). `ignoreAppointmentId`: the appointment being moved does not make its own
   * time busy. 404 / 400 as the slots call.
   */
  async offered(organizationId: string, activityId: string, start: Date, options: { ignoreAppointmentId?: string } = {}): Promise<boolean> {
    const em = this.em.fork();
    const course = await this.course(em, organizationId, activityId, false);
    const input = await this.engineInput(em, organizationId, course, start, new Date(start.getTime() + 1), this.clock.now(), options.ignoreAppointmentId);
    return input !== null && isSlotOffered(input, start);
  }

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
    const now = this.clock.now();
    const from = new Date(query.from);
    const to = new Date(query.to);
    const input = await this.engineInput(em, organizationId, course, from, to, now);
    const starts: Date[] = input ? computeSlots({ ...input, from, to }) : [];
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
    const input = await this.engineInput(em, organizationId, course, startsAt, new Date(startsAt.getTime() + 1), this.clock.now());
    if (!input) return 'not_offered';
    if (isSlotOffered(input, startsAt)) return 'offered';
    // Offered were it not for other appointments: taken (by a race, or since the page was shown).
    const withoutAppointments = { ...input, busy: input.busy.filter((b) => b.source !== 'appointment') };
    return isSlotOffered(withoutAppointments, startsAt) ? 'taken' : 'not_offered';
  }
}
