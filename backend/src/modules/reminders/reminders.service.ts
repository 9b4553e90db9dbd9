import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { type ReminderOutcome } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { JOB_QUEUE, JobEnvelope, JobQueue } from '../../queue/job-queue';
import { BookingLinksService } from '../booking-links/booking-links.service';
import { bookingMailHtml, manageLinkLine } from '../booking-links/manage-link-mail';
import { MailService } from '../notifications/mail.service';
import { mailSubject } from '../notifications/mail-compose';
import { AppointmentEvents } from '../scheduling/appointment-events';
import { appointmentWhen, appointmentWhere } from '../scheduling/appointment-mailer';
import { EnrollmentEvents } from '../scheduling/enrollment-events';
import { SessionEvents } from '../scheduling/session-events';
import {
  activeEnrollmentIds,
  BookingKind,
  readReminderBooking,
  ReminderBookingRow,
} from './reminder-booking.query';
import { Clock } from '../../common/clock';

export const REMINDER_QUEUE = 'reminders';
const SEND_REMINDER_JOB = 'send-reminder';

/** What a reminder job carries: ids, the offset and the start it was made for (ISO, UTC). */
export interface ReminderJob {
  organizationId: string;
  kind: BookingKind;
  bookingId: string;
  offsetMins: number;
  startsAt: string;
}


/** The queue's id of a booking's reminder: a moved booking (another start) gets new ids. */
export const reminderJobId = (
  kind: BookingKind,
  bookingId: string,
  offsetMins: number,
  startsAt: Date | string,
) => `reminder-${kind}-${bookingId}-${offsetMins}-${new Date(startsAt).getTime()}`;

/** The once-only key of a reminder: the log's unique key and the mail's dedupe key. */
export const reminderKey = (bookingId: string, offsetMins: number, startsAt: Date | string) =>
  `reminder:${bookingId}:${offsetMins}:${new Date(startsAt).toISOString()}`;

/**
 * Reminder mails before a class or appointment (issue 23). From the scheduling module's events (the
 * outbox, at least once; everything here is idempotent by job id and key): a seat taken or an
 * appointment booked gets one delayed job per the organization's offset, its id naming the booking,
 * offset and start; a session's time changed or an appointment moved gets jobs for the new start (the
 * old ones, when they run, see another start and do nothing); a seat removed or an appointment
 * cancelled has its jobs taken off the queue (one that runs anyway logs itself skipped).
 *
 * The job reads the booking fresh and, in one transaction, claims its row in reminder_log (unique
 * on `reminder:<booking>:<offset>:<start>`) and queues the mail under the same dedupe key: a retry,
 * a second run or a second worker finds the row and sends nothing.
 */
@Injectable()
export class RemindersService implements OnModuleInit {
  private readonly logger = new Logger('Reminders');

  constructor(
    private readonly em: EntityManager,
    private readonly enrollments: EnrollmentEvents,
    private readonly sessions: SessionEvents,
    private readonly appointments: AppointmentEvents,
    private readonly mail: MailService,
    private readonly links: BookingLinksService,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.enrollments.on('enrollment.created', 'reminders', (e) =>
      this.schedule('enrollment', e.organizationId, e.enrollmentId),
    );
    this.enrollments.on('enrollment.removed', 'reminders', (e) =>
      this.unschedule('enrollment', e.organizationId, e.enrollmentId),
    );
    // Moved to another session: jobs for the new start (the old ones, run, see another start and do nothing).
    this.enrollments.on('enrollment.moved', 'reminders', (e) =>
      this.schedule('enrollment', e.organizationId, e.enrollmentId),
    );
    this.sessions.on('session.saved', 'reminders', async (e) => {
      if (e.created) return; // a new session has no seats yet
      for (const id of await activeEnrollmentIds(this.em.fork(), e.organizationId, e.eventId)) {
        await this.schedule('enrollment', e.organizationId, id);
      }
    });
    this.appointments.on('appointment.booked', 'reminders', (e) =>
      this.schedule('appointment', e.organizationId, e.appointmentId),
    );
    this.appointments.on('appointment.moved', 'reminders', (e) =>
      this.schedule('appointment', e.organizationId, e.appointmentId),
    );
    this.appointments.on('appointment.cancelled', 'reminders', (e) =>
      this.unschedule('appointment', e.organizationId, e.appointmentId),
    );
    this.queue.process(
      REMINDER_QUEUE,
      async (job) => {
        if (job.name === SEND_REMINDER_JOB) await this.run(job.data as ReminderJob);
      },
      { onFinalFailure: (job, error) => this.failed(job as JobEnvelope<ReminderJob>, error) },
    );
  }

  /**
   * One delayed job per offset for the booking's start as it is now; a reminder whose time has passed
   * is not made. What the subscribers above call (public for the reliability test's bulk bookings).
   */
  async schedule(kind: BookingKind, organizationId: string, bookingId: string): Promise<void> {
    const booking = await readReminderBooking(this.em.fork(), kind, organizationId, bookingId);
    if (!booking?.active) return;
    const start = new Date(booking.starts_at);
    for (const offsetMins of booking.reminder_offsets_mins ?? []) {
      const delayMs = start.getTime() - offsetMins * 60_000 - this.clock.nowMs();
      if (delayMs <= 0) continue;
      await this.queue.add<ReminderJob>(
        REMINDER_QUEUE,
        SEND_REMINDER_JOB,
        { organizationId, kind, bookingId, offsetMins, startsAt: start.toISOString() },
        { jobId: reminderJobId(kind, bookingId, offsetMins, start), delayMs, attempts: 5, backoffMs: 30_000 },
      );
    }
  }

  /**
   * The booking's waiting jobs (for its start and the organization's offsets now) off the queue. A job
   * made under offsets since changed stays and, when it runs, logs itself skipped.
   */
  private async unschedule(kind: BookingKind, organizationId: string, bookingId: string): Promise<void> {
    const booking = await readReminderBooking(this.em.fork(), kind, organizationId, bookingId);
    if (!booking) return;
    for (const offsetMins of booking.reminder_offsets_mins ?? []) {
      await this.queue.remove(REMINDER_QUEUE, reminderJobId(kind, bookingId, offsetMins, booking.starts_at));
    }
  }

  /** The job: the booking read fresh; sent once (the log's key), or skipped with why. */
  private async run(job: ReminderJob): Promise<void> {
    await this.em.fork().transactional(async (em) => {
      const booking = await readReminderBooking(em, job.kind, job.organizationId, job.bookingId);
      // Gone, or moved: the job made for the new start reminds (or was not made: too late).
      if (!booking || new Date(booking.starts_at).getTime() !== Date.parse(job.startsAt)) return;
      const skipped = !booking.active
        ? (booking.inactive_reason ?? 'The booking no longer stands')
        : Date.parse(job.startsAt) <= this.clock.nowMs()
          ? 'The start had passed'
          : null;
      const claimed = await this.log(
        em,
        job,
        booking,
        skipped ? { outcome: 'skipped', detail: skipped } : { outcome: 'sent' },
      );
      if (!claimed || skipped) return;
      // In the claim's transaction: a failure to queue rolls the claim back and the job retries.
      await this.mail.enqueue(
        this.message(job, booking, await this.links.urlFor(job.organizationId, job.kind, job.bookingId)),
      );
    });
  }

  /** Claims the reminder's key: false when a run before this one (any worker) already did. */
  private async log(
    em: EntityManager,
    job: ReminderJob,
    booking: Pick<ReminderBookingRow, 'student_id' | 'student_email'>,
    result: { outcome: ReminderOutcome; detail?: string },
  ): Promise<boolean> {
    const rows = await em.execute<{ id: string }[]>(
      `insert into reminder_log (id, organization_id, booking_kind, booking_id, student_id, offset_mins, starts_at, to_address, outcome, detail, dedupe_key)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (dedupe_key) do nothing
       returning id`,
      [
        randomUUID(),
        job.organizationId,
        job.kind,
        job.bookingId,
        booking.student_id,
        job.offsetMins,
        new Date(job.startsAt),
        result.outcome === 'skipped' ? null : booking.student_email,
        result.outcome,
        result.detail?.slice(0, 500) ?? null,
        reminderKey(job.bookingId, job.offsetMins, job.startsAt),
      ],
    );
    return rows.length > 0;
  }

  /** The job failed for good (its attempts spent): logged failed with the error, unless it was sent meanwhile. */
  private async failed(job: JobEnvelope<ReminderJob>, error: Error): Promise<void> {
    const data = job.data;
    await this.em.fork().transactional(async (em) => {
      const booking = await readReminderBooking(em, data.kind, data.organizationId, data.bookingId);
      if (!booking) return;
      await this.log(em, data, booking, { outcome: 'failed', detail: error.message || error.name });
    });
    this.logger.warn(`Reminder ${job.id} failed: ${error.message}`);
  }

  /** The reminder, with the booking's manage link (cancel or reschedule by the course's policy). */
  private message(job: ReminderJob, booking: ReminderBookingRow, manageUrl: string) {
    const when = appointmentWhen(booking.starts_at, booking.time_zone);
    const what = job.kind === 'enrollment' ? 'class' : 'appointment';
    const courseText = booking.course_text?.trim();
    const text = [
      `Hello ${booking.student_first_name},`,
      '',
      `This is a reminder of your ${what}: ${booking.course_name}.`,
      '',
      `When: ${when}`,
      `Where: ${appointmentWhere(booking)}`,
      ...(job.kind === 'enrollment' && courseText ? ['', courseText] : []),
      '',
      manageLinkLine(manageUrl),
      '',
      booking.studio,
    ].join('\n');
    return {
      to: booking.student_email,
      subject: mailSubject`Reminder: ${booking.course_name}, ${when}`,
      text,
      html: bookingMailHtml(text, manageUrl),
      dedupeKey: reminderKey(job.bookingId, job.offsetMins, job.startsAt),
    };
  }
}
