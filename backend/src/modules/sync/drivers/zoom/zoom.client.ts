import { ProviderHttp } from '../provider-http';
import { ZoomMeeting, ZoomMeetingSummary, ZoomUser } from './zoom.resources';

export interface ZoomMeetingInput {
  topic: string;
  startsAt: Date;
  durationMins: number;
  timezone: string;
}

/** Zoom writes start_time in UTC as `yyyy-MM-ddTHH:mm:ssZ`. */
const zoomUtc = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Every call the sync makes to Zoom API v2, for one organization's token. */
export class ZoomClient {
  readonly http: ProviderHttp;

  constructor(apiBase: string, accessToken: string) {
    this.http = new ProviderHttp('zoom', apiBase, accessToken);
  }

  me(): Promise<ZoomUser> {
    return this.http.as(ZoomUser, { path: '/users/me' });
  }

  private body(input: ZoomMeetingInput) {
    // type 2: a scheduled meeting.
    return {
      topic: input.topic.slice(0, 200),
      type: 2,
      start_time: zoomUtc(input.startsAt),
      duration: input.durationMins,
      timezone: input.timezone,
    };
  }

  createMeeting(input: ZoomMeetingInput): Promise<ZoomMeeting> {
    return this.http.as(ZoomMeeting, { method: 'POST', path: '/users/me/meetings', body: this.body(input) });
  }

  getMeeting(meetingId: string): Promise<ZoomMeeting> {
    return this.http.as(ZoomMeeting, { path: `/meetings/${encodeURIComponent(meetingId)}` });
  }

  async updateMeeting(meetingId: string, input: ZoomMeetingInput): Promise<void> {
    await this.http.call({ method: 'PATCH', path: `/meetings/${encodeURIComponent(meetingId)}`, body: this.body(input) });
  }

  async deleteMeeting(meetingId: string): Promise<void> {
    await this.http.call({ method: 'DELETE', path: `/meetings/${encodeURIComponent(meetingId)}` });
  }

  /** A UUID that starts with `/` or holds `//` is encoded twice, as Zoom's docs require. */
  meetingSummary(meetingUuid: string): Promise<ZoomMeetingSummary> {
    const once = encodeURIComponent(meetingUuid);
    const id = meetingUuid.startsWith('/') || meetingUuid.includes('//') ? encodeURIComponent(once) : once;
    return this.http.as(ZoomMeetingSummary, { path: `/meetings/${id}/meeting_summary` });
  }
}
