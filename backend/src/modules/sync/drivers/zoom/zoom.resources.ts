import { Expose, Type } from 'class-transformer';

/* Zoom API v2 resources (https://developers.zoom.us/docs/api/), one class each. */

export class ZoomUser {
  id!: string;
  @Expose({ name: 'first_name' }) firstName!: string | null;
  @Expose({ name: 'last_name' }) lastName!: string | null;
  @Expose({ name: 'display_name' }) displayName!: string | null;
  email!: string | null;
  timezone!: string | null;
}

export class ZoomMeeting {
  /** The meeting number. */
  id!: number;
  /** The instance's UUID (the meeting summary is read by it). */
  uuid!: string;
  topic!: string;
  type!: number;
  @Expose({ name: 'join_url' }) joinUrl!: string;
  @Expose({ name: 'start_url' }) startUrl?: string;
  @Expose({ name: 'start_time' })
  @Type(() => Date)
  startTime!: Date;
  /** Minutes. */
  duration!: number;
  timezone!: string;
}

export class ZoomSummaryDetail {
  label!: string;
  summary!: string;
}

export class ZoomMeetingSummary {
  @Expose({ name: 'meeting_uuid' }) meetingUuid!: string;
  @Expose({ name: 'meeting_id' }) meetingId!: number;
  @Expose({ name: 'meeting_topic' }) meetingTopic?: string;
  @Expose({ name: 'summary_title' }) summaryTitle?: string;
  @Expose({ name: 'summary_overview' }) summaryOverview!: string | null;
  @Expose({ name: 'summary_details' })
  @Type(() => ZoomSummaryDetail)
  summaryDetails: ZoomSummaryDetail[] = [];
  @Expose({ name: 'next_steps' }) nextSteps: string[] = [];
  @Expose({ name: 'summary_start_time' })
  @Type(() => Date)
  summaryStartTime?: Date;
  @Expose({ name: 'summary_end_time' })
  @Type(() => Date)
  summaryEndTime?: Date;
}
