import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { CourseEvents } from '../catalog/course-events';
import { AppointmentEvents, AppointmentMeetings } from '../scheduling/appointment-events';
import { AppointmentReads } from '../scheduling/appointment-reads';
import { EventsService } from '../scheduling/events.service';
import { SessionEvents } from '../scheduling/session-events';
import { SyncJobsService } from './jobs/sync-jobs.service';
import { SyncSwitches } from './sync-switches';

/** A session "has meetings" when its location is marked online (Settings > Locations). */
export const hasMeetings = (s: { locationOnline: boolean }) => s.locationOnline;

/** How long after a session ends its Zoom summary is read (Zoom writes it a few minutes after). */
export const ZOOM_SUMMARY_DELAY_MS = 15 * 60_000;

/**
 * Turns the scheduling and catalog announcements into sync jobs (ids only). Never writes their
 * tables: what the jobs learn comes back through EventsService.attachMeeting and the orders module.
 */
@Injectable()
export class EventsSyncListener implements OnModuleInit {
  constructor(
    private readonly em: EntityManager,
    private readonly sessions: SessionEvents,
    private readonly courses: CourseEvents,
    private readonly events: EventsService,
    private readonly switches: SyncSwitches,
    private readonly jobs: SyncJobsService,
    private readonly appointmentEvents: AppointmentEvents,
    private readonly appointments: AppointmentReads,
    private readonly meetings: AppointmentMeetings,
  ) {}

  onModuleInit(): void {
    this.sessions.on('session.saved', 'sync.sessions', (e) => this.sessionSaved(e.organizationId, e.eventId));
    this.sessions.on('session.removed', 'sync.sessions', (e) => this.sessionRemoved(e.organizationId, e.eventId));
    // The studio cancelled the session (issue 23): its Eventbrite event and Zoom meeting are cancelled as for a removed one.
    this.sessions.on('session.cancelled', 'sync.sessions', (e) => this.sessionRemoved(e.organizationId, e.eventId));
    // Appointments (issue 22): a booked one at an online location gets a Zoom meeting, moved with it, deleted when cancelled.
    this.appointmentEvents.on('appointment.booked', 'sync.appointments', (e) => this.appointmentSaved(e.organizationId, e.appointmentId));
    this.appointmentEvents.on('appointment.moved', 'sync.appointments', (e) => this.appointmentSaved(e.organizationId, e.appointmentId));
    this.appointmentEvents.on('appointment.cancelled', 'sync.appointments', (e) => this.appointmentCancelled(e.organizationId, e.appointmentId));
    // Whether a booked appointment's confirmation waits for its meeting link.
    this.meetings.register(async (organizationId) => (await this.switches.of(organizationId)).zoom.connected);
    this.courses.on('course.updated', 'sync.courses', (e) =>
      this.courseLinked(e.organizationId, e.activityId, e.syncWithEventbrite ? e.eventbriteEventId : null),
    );
  }

  private async mapping(organizationId: string, provider: 'eventbrite' | 'zoom', localType: string, localId: string) {
    const [row] = await this.em
      .getConnection()
      .execute<{ remote_id: string | null; stage: string }[]>(
        `select remote_id, stage from sync_mapping
          where organization_id = ? and provider = ? and local_type = ? and local_id = ?`,
        [organizationId, provider, localType, localId],
      );
    return row ?? null;
  }

  /**
   * A saved session goes to Eventbrite (when connected, and its course or every course syncs, or it
   * is already there) and gets a Zoom meeting (when connected and its location is online). Which
   * providers are connected, and Eventbrite's sync_all_courses, come from SyncSwitches (cached per
   * organization, dropped at once on a settings save, connect or disconnect in this process).
   */
  async sessionSaved(organizationId: string, eventId: string): Promise<void> {
    const session = await this.events.syncView(organizationId, eventId);
    if (!session) return;
    const switches = await this.switches.of(organizationId);
    if (switches.eventbrite.connected) {
      const synced = await this.mapping(organizationId, 'eventbrite', 'event', eventId);
      if (switches.eventbrite.config.sync_all_courses || session.syncWithEventbrite || synced?.remote_id) {
        await this.jobs.enqueue({ organizationId, provider: 'eventbrite', action: 'event.upsert', localType: 'event', localId: eventId });
      }
    }
    if (switches.zoom.connected && hasMeetings(session)) {
      await this.jobs.enqueue({ organizationId, provider: 'zoom', action: 'meeting.upsert', localType: 'event', localId: eventId });
    }
  }

  async sessionRemoved(organizationId: string, eventId: string): Promise<void> {
    const eventbrite = await this.mapping(organizationId, 'eventbrite', 'event', eventId);
    if (eventbrite?.remote_id) {
      await this.jobs.enqueue({ organizationId, provider: 'eventbrite', action: 'event.cancel', localType: 'event', localId: eventId });
    }
    const zoom = await this.mapping(organizationId, 'zoom', 'event', eventId);
    if (zoom?.remote_id) {
      await this.jobs.enqueue({ organizationId, provider: 'zoom', action: 'meeting.delete', localType: 'event', localId: eventId });
    }
  }

  /** A booked (or moved) appointment at an online location: its Zoom meeting, when Zoom is connected. */
  async appointmentSaved(organizationId: string, appointmentId: string): Promise<void> {
    const appointment = await this.appointments.view(this.em.fork(), organizationId, appointmentId).catch(() => null);
    if (!appointment || !appointment.location_online) return;
    const switches = await this.switches.of(organizationId);
    if (!switches.zoom.connected) return;
    await this.jobs.enqueue({ organizationId, provider: 'zoom', action: 'appointment-meeting.upsert', localType: 'appointment', localId: appointmentId });
  }

  /** A cancelled appointment's meeting, if it has one, is deleted. */
  async appointmentCancelled(organizationId: string, appointmentId: string): Promise<void> {
    const zoom = await this.mapping(organizationId, 'zoom', 'appointment', appointmentId);
    if (zoom?.remote_id) {
      await this.jobs.enqueue({ organizationId, provider: 'zoom', action: 'appointment-meeting.delete', localType: 'appointment', localId: appointmentId });
    }
  }

  /**
   * Edit Course's link to an existing Eventbrite event: a mapping of the course with that event's
   * id (synced at once: nothing is written to Eventbrite). Unlinking removes the mapping.
   */
  async courseLinked(organizationId: string, activityId: string, eventbriteEventId: string | null): Promise<void> {
    const connection = this.em.getConnection();
    if (!eventbriteEventId) {
      await connection.execute(
        `delete from sync_mapping where organization_id = ? and provider = 'eventbrite' and local_type = 'activity' and local_id = ?`,
        [organizationId, activityId],
      );
      return;
    }
    await connection.execute(
      `insert into sync_mapping (id, organization_id, provider, local_type, local_id, remote_id, stage, last_synced_at)
       values (gen_random_uuid(), ?, 'eventbrite', 'activity', ?, ?, 'synced', now())
       on conflict (organization_id, provider, local_type, local_id)
       do update set remote_id = excluded.remote_id, stage = 'synced', last_error = null,
         last_synced_at = now(), updated_at = now()`,
      [organizationId, activityId, eventbriteEventId],
    );
  }
}
