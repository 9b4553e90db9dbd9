import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { formatZonedDateTime } from '@studio/contracts';
import { BookingLinksService } from '../booking-links/booking-links.service';
import { bookingMailHtml, manageLinkLine } from '../booking-links/manage-link-mail';
import { MailService } from '../notifications/mail.service';
import { calendarAttachment, calendarFile, mailSubject } from '../notifications/mail-compose';
import { EnrollmentEvents } from '../scheduling/enrollment-events';

interface MovedRow {
  status: string;
  event_id: string;
  order_id: string | null;
  guest_count: number;
  email: string;
  first_name: string;
  course_name: string;
  starts_at: Date;
  ends_at: Date;
  timezone: string;
  location_name: string;
  address: string;
  online: boolean;
  meeting_join_url: string | null;
  studio: string;
}

/**
 * enrollment.moved (issue 23): the student is mailed the new time with a calendar file that
 * replaces the one they had (the same UID as the confirmation's, a higher SEQUENCE) and the manage
 * link; once per move (its key), and not at all when the seat has moved on or was removed since.
 */
@Injectable()
export class BookingMovedMailer implements OnModuleInit {
  constructor(
    private readonly em: EntityManager,
    private readonly events: EnrollmentEvents,
    private readonly mail: MailService,
    private readonly links: BookingLinksService,
  ) {}

  onModuleInit(): void {
    this.events.on('enrollment.moved', 'manage-booking.moved-mail', (e) => this.moved(e.organizationId, e.enrollmentId, e.fromEventId, e.toEventId));
  }

  private async moved(organizationId: string, enrollmentId: string, fromEventId: string, toEventId: string): Promise<void> {
    // A read across modules (the seat, its student, session, course, place and studio), writing nothing.
    const [row] = await this.em.fork().getConnection().execute<MovedRow[]>(
      `select e.status, e.event_id, e.order_id, e.guest_count, s.email, s.first_name, a.name as course_name,
              ev.starts_at, ev.ends_at, l.timezone, l.name as location_name, l.address, l.online, ev.meeting_join_url, org.name as studio
         from enrollment e
         join student s on s.id = e.student_id
         join event ev on ev.id = e.event_id
         join activity a on a.id = ev.activity_id
         join location l on l.id = ev.location_id
         join organization org on org.id = e.organization_id
        where e.id = ? and e.organization_id = ?`,
      [enrollmentId, organizationId],
    );
    if (!row || row.status !== 'active' || row.event_id !== toEventId) return;
    const when = formatZonedDateTime(row.starts_at, row.timezone);
    const where = row.online ? `Online${row.meeting_join_url ? `: ${row.meeting_join_url}` : ''}` : `${row.location_name}, ${row.address}`;
    const party = 1 + Number(row.guest_count);
    const url = await this.links.urlFor(organizationId, 'enrollment', enrollmentId);
    const ics = calendarFile({
      // The confirmation's UID (its order's), so the calendar replaces the entry it has.
      uid: `${row.order_id ?? enrollmentId}@studio`,
      sequence: Math.floor(Date.now() / 1000),
      title: row.course_name,
      startsAt: row.starts_at,
      endsAt: row.ends_at,
      location: where,
      description: `${row.studio}: ${row.course_name}`,
      organizer: row.studio,
    });
    const text = [
      `Hello ${row.first_name},`,
      '',
      `Your booking in ${row.course_name} (${party === 1 ? '1 seat' : `${party} seats`}) has moved.`,
      '',
      `New time: ${when}`,
      `Where: ${where}`,
      '',
      'The calendar file attached replaces the one you had.',
      '',
      manageLinkLine(url),
      '',
      row.studio,
    ].join('\n');
    await this.mail.enqueue({
      to: row.email,
      subject: mailSubject`New time: ${row.course_name}`,
      text,
      html: bookingMailHtml(text, url),
      attachments: [calendarAttachment(ics, 'booking.ics')],
      dedupeKey: `enrollment-moved:${enrollmentId}:${fromEventId}:${toEventId}`,
    });
  }
}
