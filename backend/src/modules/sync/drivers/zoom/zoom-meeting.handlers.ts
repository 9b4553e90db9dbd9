import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AppointmentReads } from '../../../scheduling/appointment-reads';
import { AppointmentsService } from '../../../scheduling/appointments.service';
import { EventsService } from '../../../scheduling/events.service';
import { ZOOM_SUMMARY_DELAY_MS } from '../../events-sync.listener';
import { SyncJobData, SyncJobHandler, SyncJobMapping, SyncJobResult } from '../../jobs/sync-job.types';
import { SyncJobsService } from '../../jobs/sync-jobs.service';
import { SyncConnectionsService } from '../../sync-connections.service';
import { SyncSettingsService } from '../../sync-settings.service';
import { ProviderRejectedError } from '../sync-driver';
import { ZoomClient } from './zoom.client';
import { ZoomDriver } from './zoom.driver';
import { ZoomMeetingSummary } from './zoom.resources';

async function zoomClient(connections: SyncConnectionsService, driver: ZoomDriver, organizationId: string): Promise<ZoomClient> {
  return driver.client((await connections.auth({ organizationId }, 'zoom')).accessToken);
}

/** The summary as the event shows it: the overview, then each section, then the next steps. */
export function summaryText(summary: ZoomMeetingSummary): string {
  const parts = [summary.summaryOverview ?? ''];
  for (const d of summary.summaryDetails) if (d.summary && d.summary !== summary.summaryOverview) parts.push(`${d.label}: ${d.summary}`);
  if (summary.nextSteps.length) parts.push(`Next steps: ${summary.nextSteps.join('; ')}`);
  return parts.filter(Boolean).join('\n\n').slice(0, 20_000);
}

/**
 * `meeting.upsert`: a session of a course with meetings gets a Zoom meeting (created once: its
 * number is kept on the mapping as soon as Zoom answers), updated when the session changes. The
 * join URL goes on the session (EventsService.attachMeeting). With meeting_summary on, the summary
 * job is queued for after the session ends.
 */
@Injectable()
export class ZoomMeetingUpsertHandler implements SyncJobHandler {
  readonly provider = 'zoom' as const;
  readonly action = 'meeting.upsert';

  constructor(
    private readonly em: EntityManager,
    private readonly events: EventsService,
    private readonly connections: SyncConnectionsService,
    private readonly settings: SyncSettingsService,
    private readonly driver: ZoomDriver,
    // SyncJobsService is read when needed: it depends on the handler list this handler is in.
    private readonly moduleRef: ModuleRef,
  ) {}

  handle(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    return this.run(job, mapping); // in the job's context (SyncJobsService.run)
  }

  private async run(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    const session = await this.events.syncView(job.organizationId, job.localId);
    const client = await zoomClient(this.connections, this.driver, job.organizationId);
    if (!session || session.status !== 'active') {
      if (mapping.remoteId) await client.deleteMeeting(mapping.remoteId).catch(ignoreGone);
      return { stage: 'cancelled' };
    }
    const input = {
      topic: session.name,
      startsAt: session.startsAt,
      durationMins: session.durationMins,
      timezone: session.timezone,
    };
    const { remoteId, joinUrl } = await upsertMeeting(this.em, client, mapping, input);
    await this.events.attachMeeting(job.organizationId, session.id, { joinUrl });
    const { meeting_summary } = await this.settings.config({ organizationId: job.organizationId }, 'zoom');
    if (meeting_summary) {
      await this.moduleRef.get(SyncJobsService, { strict: false }).enqueueLater(
        { ...job, action: 'meeting.summary' },
        Math.max(0, session.endsAt.getTime() - Date.now()) + ZOOM_SUMMARY_DELAY_MS,
      );
    }
    return { remoteId };
  }
}

/**
 * The meeting of a mapping, updated when it has one (its join URL read back), else created and its
 * number kept on the mapping at once (so a retry after a crash updates instead of creating twice).
 */
async function upsertMeeting(
  em: EntityManager,
  client: Awaited<ReturnType<typeof zoomClient>>,
  mapping: SyncJobMapping,
  input: Parameters<Awaited<ReturnType<typeof zoomClient>>['createMeeting']>[0],
): Promise<{ remoteId: string; joinUrl: string }> {
  if (mapping.remoteId) {
    await client.updateMeeting(mapping.remoteId, input);
    return { remoteId: mapping.remoteId, joinUrl: (await client.getMeeting(mapping.remoteId)).joinUrl };
  }
  const meeting = await client.createMeeting(input);
  const remoteId = String(meeting.id);
  await em.getConnection().execute(`update sync_mapping set remote_id = ?, updated_at = now() where id = ?`, [remoteId, mapping.id]);
  return { remoteId, joinUrl: meeting.joinUrl };
}

const ignoreGone = (error: unknown) => {
  if (error instanceof ProviderRejectedError && error.status === 404) return;
  throw error;
};

/** `meeting.delete`: the session was removed; its meeting is deleted and the join URL taken off. */
@Injectable()
export class ZoomMeetingDeleteHandler implements SyncJobHandler {
  readonly provider = 'zoom' as const;
  readonly action = 'meeting.delete';

  constructor(
    private readonly connections: SyncConnectionsService,
    private readonly driver: ZoomDriver,
  ) {}

  handle(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    return this.run(job, mapping); // in the job's context (SyncJobsService.run)
  }

  private async run(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    if (mapping.remoteId) {
      const client = await zoomClient(this.connections, this.driver, job.organizationId);
      await client.deleteMeeting(mapping.remoteId).catch(ignoreGone);
    }
    return { stage: 'cancelled' };
  }
}

/**
 * `meeting.summary`: after the session, its meeting's summary (GET /meetings/{uuid}/meeting_summary)
 * is attached to the session. Zoom answers 404 until the summary is written: the job fails and the
 * queue retries it with backoff.
 */
@Injectable()
export class ZoomMeetingSummaryHandler implements SyncJobHandler {
  readonly provider = 'zoom' as const;
  readonly action = 'meeting.summary';

  constructor(
    private readonly events: EventsService,
    private readonly connections: SyncConnectionsService,
    private readonly settings: SyncSettingsService,
    private readonly driver: ZoomDriver,
  ) {}

  handle(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    return this.run(job, mapping); // in the job's context (SyncJobsService.run)
  }

  private async run(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    if (!mapping.remoteId) return {};
    const { meeting_summary } = await this.settings.config({ organizationId: job.organizationId }, 'zoom');
    if (!meeting_summary) return {};
    const client = await zoomClient(this.connections, this.driver, job.organizationId);
    const meeting = await client.getMeeting(mapping.remoteId);
    let summary: ZoomMeetingSummary;
    try {
      summary = await client.meetingSummary(meeting.uuid);
    } catch (error) {
      if (error instanceof ProviderRejectedError && error.status === 404) {
        throw new Error(`The Zoom summary of meeting ${mapping.remoteId} is not ready yet`);
      }
      throw error;
    }
    await this.events.attachMeeting(job.organizationId, job.localId, { summary: summaryText(summary) });
    return { remoteId: mapping.remoteId };
  }
}

/**
 * `appointment-meeting.upsert` (issue 22): a booked appointment at an online location gets a Zoom
 * meeting like a session does (created once: its number is kept on the mapping as soon as Zoom
 * answers), updated when it moves. The join URL goes on the appointment
 * (AppointmentsService.attachMeeting: its first link lets the confirmation go). An appointment no
 * longer booked has its meeting deleted.
 */
@Injectable()
export class ZoomAppointmentMeetingUpsertHandler implements SyncJobHandler {
  readonly provider = 'zoom' as const;
  readonly action = 'appointment-meeting.upsert';

  constructor(
    private readonly em: EntityManager,
    private readonly appointments: AppointmentsService,
    private readonly appointmentReads: AppointmentReads,
    private readonly connections: SyncConnectionsService,
    private readonly driver: ZoomDriver,
  ) {}

  handle(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    return this.run(job, mapping); // in the job's context (SyncJobsService.run)
  }

  private async run(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    const appointment = await this.appointmentReads.view(this.em.fork(), job.organizationId, job.localId).catch(() => null);
    const client = await zoomClient(this.connections, this.driver, job.organizationId);
    if (!appointment || appointment.status !== 'booked') {
      if (mapping.remoteId) await client.deleteMeeting(mapping.remoteId).catch(ignoreGone);
      if (appointment) await this.appointments.attachMeeting(job.organizationId, appointment.id, null);
      return { stage: 'cancelled' };
    }
    const startsAt = new Date(appointment.starts_at);
    const input = {
      topic: `${appointment.course_name}: ${appointment.student_first_name} ${appointment.student_last_name ?? ''}`.trim().slice(0, 200),
      startsAt,
      durationMins: Math.max(1, Math.round((new Date(appointment.ends_at).getTime() - startsAt.getTime()) / 60_000)),
      timezone: appointment.time_zone,
    };
    const { remoteId, joinUrl } = await upsertMeeting(this.em, client, mapping, input);
    await this.appointments.attachMeeting(job.organizationId, appointment.id, joinUrl);
    return { remoteId };
  }
}

/** `appointment-meeting.delete`: the appointment was cancelled; its meeting is deleted and the join URL taken off. */
@Injectable()
export class ZoomAppointmentMeetingDeleteHandler implements SyncJobHandler {
  readonly provider = 'zoom' as const;
  readonly action = 'appointment-meeting.delete';

  constructor(
    private readonly appointments: AppointmentsService,
    private readonly connections: SyncConnectionsService,
    private readonly driver: ZoomDriver,
  ) {}

  handle(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    return this.run(job, mapping); // in the job's context (SyncJobsService.run)
  }

  private async run(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    if (mapping.remoteId) {
      const client = await zoomClient(this.connections, this.driver, job.organizationId);
      await client.deleteMeeting(mapping.remoteId).catch(ignoreGone);
    }
    await this.appointments.attachMeeting(job.organizationId, job.localId, null);
    return { stage: 'cancelled' };
  }
}
