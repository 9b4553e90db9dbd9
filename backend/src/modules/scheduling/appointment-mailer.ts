import { EntityManager } from '@mikro-orm/postgresql';
import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { formatZonedDateTime } from '@studio/contracts';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue';
import { MailService } from '../notifications/mail.service';
import { calendarAttachment, calendarFile, mailSubject } from '../notifications/mail-compose';
import { BookingLinksService } from '../booking-links/booking-links.service';
import { bookingMailHtml, manageLinkLine } from '../booking-links/manage-link-mail';
import { AppointmentEvents, AppointmentMeetings } from './appointment-events';
import { AppointmentViewRow } from './appointment-view.query';
import { AppointmentReads } from './appointment-reads';

export const APPOINTMENT_MAILS_QUEUE = 'scheduling-appointment-mails';
const CONFIRM_WITHOUT_MEETING_JOB = 'confirm-without-meeting';
/** How long a confirmation waits for its meeting link before it goes without one (the meeting job failing for good). */
export const MEETING_WAIT_MS = 10 * 60_000;

/** The appointment's time for a mail: the location's zone, always named (a mail's reader may be anywhere). */
export const appointmentWhen = (startsAt: Date | string, zone: string) => formatZonedDateTime(startsAt, zone);

/** Where the appointment is, for a mail and the calendar file: the meeting link online, else the address. */
export function appointmentWhere(row: Pick<AppointmentViewRow, 'location_online' | 'meeting_url' | 'location_name' | 'location_address'>): string {
  if (row.location_online) return `Online${row.meeting_url ? `: ${row.meeting_url}` : ''}`;
  return [row.location_name, row.location_address].filter(Boolean).join(', ');
}

/**
 * The student's appointment mails (issue 22), from AppointmentEvents (the outbox): booked (enrolled
 * directly, or a payment link paid) → a confirmation with the time in the location's zone, where
 * (address or meeting link) and a calendar file; moved → the new time with the calendar file updated
 * (same UID, higher SEQUENCE); cancelled → the cancellation (METHOD:CANCEL). Idempotent: each mail's
 * dedupe key names its occasion (the appointment, and the move's sequence).
 *
 * An appointment that will get a meeting link (Zoom connected, an online location) is confirmed when
 * the link is attached (appointment.meeting_ready), so the student's one confirmation has it.
 */
@Injectable()
export class AppointmentMailer implements OnModuleInit {
  constructor(
    private readonly em: EntityManager,
    private readonly events: AppointmentEvents,
    private readonly appointments: AppointmentReads,
    private readonly meetings: AppointmentMeetings,
    private readonly mail: MailService,
    private readonly orm: MikroORM,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly links: BookingLinksService,
  ) {}

  onModuleInit(): void {
    this.events.on('appointment.booked', 'scheduling.appointment-mails', async (e) => {
      if (e.confirm) await this.confirm(e.organizationId, e.appointmentId, { waitForMeeting: true });
    });
    this.events.on('appointment.meeting_ready', 'scheduling.appointment-mails', (e) =>
      this.confirm(e.organizationId, e.appointmentId, { waitForMeeting: false }),
    );
    this.events.on('appointment.moved', 'scheduling.appointment-mails', async (e) => {
      if (e.notify) await this.moved(e.organizationId, e.appointmentId, e.sequence);
    });
    this.events.on('appointment.cancelled', 'scheduling.appointment-mails', async (e) => {
      if (e.notify) await this.cancelled(e.organizationId, e.appointmentId);
    });
    this.queue.process(APPOINTMENT_MAILS_QUEUE, (job) => this.fallbackJob(job.data as { organizationId: string; appointmentId: string }));
  }

  @CreateRequestContext() // the job's entry: its one MikroORM context
  private async fallbackJob(data: { organizationId: string; appointmentId: string }): Promise<void> {
    await this.confirm(data.organizationId, data.appointmentId, { waitForMeeting: false });
  }

  private async read(organizationId: string, appointmentId: string) {
    const em = this.em.fork();
    const row = await this.appointments.view(em, organizationId, appointmentId).catch(() => null);
    if (!row) return null;
    const [org] = await em.execute<{ name: string }[]>(`select name from organization where id = ?`, [organizationId]);
    return { row, studio: org?.name ?? '' };
  }

  /** The appointment's calendar file: its UID, its sequence (one more for the cancellation) and method. */
  private calendarFile(row: AppointmentViewRow, studio: string, cancelled = false): string {
    return calendarFile({
      uid: `appointment-${row.id}@studio`,
      sequence: cancelled ? Number(row.sequence) + 1 : Number(row.sequence),
      title: row.course_name,
      startsAt: row.starts_at,
      endsAt: row.ends_at,
      location: appointmentWhere(row),
      description: `${studio}: ${row.course_name} with ${row.instructor_name}`,
      organizer: studio,
      method: cancelled ? 'CANCEL' : 'PUBLISH',
    });
  }

  private attachment(content: string, cancelled = false) {
    return calendarAttachment(content, 'appointment.ics', cancelled ? 'CANCEL' : 'PUBLISH');
  }

  /** The confirmation, once per appointment (its key), while it is booked. */
  private async confirm(organizationId: string, appointmentId: string, options: { waitForMeeting: boolean }): Promise<void> {
    const found = await this.read(organizationId, appointmentId);
    if (!found || found.row.status !== 'booked') return;
    const { row, studio } = found;
    // Its link comes with appointment.meeting_ready, which confirms it then; should the meeting never
    // come, the confirmation goes without it after MEETING_WAIT_MS (the same key: one mail either way).
    if (options.waitForMeeting && !row.meeting_url && (await this.meetings.expected(organizationId, row.location_online))) {
      await this.queue.add(
        APPOINTMENT_MAILS_QUEUE,
        CONFIRM_WITHOUT_MEETING_JOB,
        { organizationId, appointmentId },
        { jobId: `appointment-confirmation-fallback-${appointmentId}`, delayMs: MEETING_WAIT_MS, attempts: 5, backoffMs: 30_000 },
      );
      return;
    }
    const party = 1 + Number(row.guest_count);
    const manage = await this.links.urlFor(organizationId, 'appointment', row.id);
    const text = [
      `Hello ${row.student_first_name},`,
      '',
      `You're booked in ${row.course_name} with ${row.instructor_name}${party > 1 ? ` (${party} people)` : ''}.`,
      '',
      `When: ${appointmentWhen(row.starts_at, row.time_zone)}`,
      `Where: ${appointmentWhere(row)}`,
      ...(row.order_number !== null ? ['', `Order #${row.order_number}.`] : []),
      '',
      manageLinkLine(manage),
      '',
      studio,
    ].join('\n');
    await this.mail.enqueue({
      to: row.student_email,
      subject: mailSubject`You're booked: ${row.course_name}`,
      text,
      html: bookingMailHtml(text, manage),
      attachments: [this.attachment(this.calendarFile(row, studio))],
      dedupeKey: `appointment-confirmation:${row.id}`,
    });
  }

  /** The new time, once per move (the key has the calendar file's sequence). */
  private async moved(organizationId: string, appointmentId: string, sequence: number): Promise<void> {
    const found = await this.read(organizationId, appointmentId);
    // A later move mails its own time; a cancelled one its cancellation.
    if (!found || found.row.status !== 'booked' || Number(found.row.sequence) !== sequence) return;
    const { row, studio } = found;
    const manage = await this.links.urlFor(organizationId, 'appointment', row.id);
    const text = [
      `Hello ${row.student_first_name},`,
      '',
      `Your appointment for ${row.course_name} with ${row.instructor_name} has moved.`,
      '',
      `New time: ${appointmentWhen(row.starts_at, row.time_zone)}`,
      `Where: ${appointmentWhere(row)}`,
      '',
      'The calendar file attached replaces the one you had.',
      '',
      manageLinkLine(manage),
      '',
      studio,
    ].join('\n');
    await this.mail.enqueue({
      to: row.student_email,
      subject: mailSubject`New time: ${row.course_name}`,
      text,
      html: bookingMailHtml(text, manage),
      attachments: [this.attachment(this.calendarFile(row, studio))],
      dedupeKey: `appointment-moved:${row.id}:${sequence}`,
    });
  }

  /** The cancellation, once per appointment. */
  private async cancelled(organizationId: string, appointmentId: string): Promise<void> {
    const found = await this.read(organizationId, appointmentId);
    if (!found || found.row.status !== 'cancelled') return;
    const { row, studio } = found;
    await this.mail.enqueue({
      to: row.student_email,
      subject: mailSubject`Cancelled: ${row.course_name}`,
      text: [
        `Hello ${row.student_first_name},`,
        '',
        `Your appointment for ${row.course_name} on ${appointmentWhen(row.starts_at, row.time_zone)} is cancelled.`,
        '',
        studio,
      ].join('\n'),
      attachments: [this.attachment(this.calendarFile(row, studio, true), true)],
      dedupeKey: `appointment-cancelled:${row.id}`,
    });
  }
}
