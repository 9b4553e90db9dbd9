import { randomBytes } from 'node:crypto';
import { FakeHttpServer, FakeRateLimit, FakeResponse, Obj } from './fake-http';
import { FakeOAuth, mountFakeOAuth } from './fake-oauth';

/*
 * A fake of Zoom: OAuth at /oauth/authorize, /oauth/token and /oauth/revoke (HTTP Basic client
 * auth, tokens that expire in an hour), API v2 under /v2 with Zoom's shapes (meetings with
 * join_url, start_time, duration, timezone; the AI Companion meeting summary).
 */

export interface FakeZoomMeeting {
  id: number;
  uuid: string;
  host_id: string;
  topic: string;
  type: number;
  start_time: string;
  duration: number;
  timezone: string;
  join_url: string;
  start_url: string;
  created_at: string;
  status: 'waiting' | 'deleted';
}

export interface FakeZoomState {
  user: { id: string; first_name: string; last_name: string; display_name: string; email: string; timezone: string };
  meetings: Map<number, FakeZoomMeeting>;
  /** Summaries by meeting UUID; a meeting without one answers 404 as Zoom does before it is ready. */
  summaries: Map<string, Obj>;
  counts: { meetingsCreated: number; meetingsUpdated: number; meetingsDeleted: number; summariesRead: number };
  /** Answers 429 to the next API calls (the server's FakeRateLimit). */
  rateLimit: FakeRateLimit;
}

export interface FakeZoom {
  url: string;
  server: FakeHttpServer;
  oauth: FakeOAuth;
  state: FakeZoomState;
  /** Writes the AI Companion summary of a meeting (as if it had taken place). */
  summarize(meeting: FakeZoomMeeting, overview: string): Obj;
  close(): Promise<void>;
}

let meetingNumber = 85000000000;
const noMs = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export async function startFakeZoom(
  options: { clientId?: string; clientSecret?: string; port?: number } = {},
): Promise<FakeZoom> {
  const server = new FakeHttpServer('zoom');
  const oauth = mountFakeOAuth(server, {
    clientId: options.clientId ?? 'fake-zoom-client',
    clientSecret: options.clientSecret ?? 'fake-zoom-secret',
    paths: { authorize: '/oauth/authorize', token: '/oauth/token', revoke: '/oauth/revoke' },
    clientAuth: 'basic',
    expiresInSeconds: 3600,
    defaultScope: 'meeting:write:meeting meeting:read:meeting meeting:read:summary user:read:user',
  });
  const state: FakeZoomState = {
    user: {
      id: 'KDcuGIm1QgePTO8WbOqwIQ',
      first_name: 'Riley',
      last_name: 'Studio',
      display_name: 'Riley Studio',
      email: 'riley@studio.example',
      timezone: 'America/New_York',
    },
    meetings: new Map(),
    summaries: new Map(),
    counts: { meetingsCreated: 0, meetingsUpdated: 0, meetingsDeleted: 0, summariesRead: 0 },
    rateLimit: server.rateLimit,
  };

  // Every API call: a live bearer token, then the rate limit (429 with Retry-After).
  server.guardApi({
    prefix: '/v2/',
    check: (req) => oauth.requireToken(req),
    tooMany: () => ({ json: { code: 429, message: 'You have exceeded the daily rate limit of this API.' } }),
  });

  const missing = (id: string): FakeResponse => ({
    status: 404,
    json: { code: 3001, message: `Meeting does not exist: ${id}.` },
  });
  const find = (id: string) => state.meetings.get(Number(id));
  const apply = (m: FakeZoomMeeting, input: Obj) => {
    if (input.topic !== undefined) m.topic = String(input.topic);
    if (input.start_time !== undefined) m.start_time = noMs(new Date(String(input.start_time)));
    if (input.duration !== undefined) m.duration = Number(input.duration);
    if (input.timezone !== undefined) m.timezone = String(input.timezone);
    if (input.type !== undefined) m.type = Number(input.type);
  };

  server
    .route('GET', '/v2/users/me', () => ({ json: state.user }))
    .route('POST', '/v2/users/me/meetings', (req) => {
      const input = (req.body ?? {}) as Obj;
      if (!input.topic) return { status: 400, json: { code: 300, message: 'Validation Failed.' } };
      const id = ++meetingNumber;
      const uuid = randomBytes(16).toString('base64');
      const meeting: FakeZoomMeeting = {
        id,
        uuid,
        host_id: state.user.id,
        topic: '',
        type: 2,
        start_time: noMs(new Date()),
        duration: 60,
        timezone: state.user.timezone,
        join_url: `${url}/j/${id}?pwd=${randomBytes(8).toString('hex')}`,
        start_url: `${url}/s/${id}`,
        created_at: noMs(new Date()),
        status: 'waiting',
      };
      apply(meeting, input);
      state.meetings.set(id, meeting);
      state.counts.meetingsCreated += 1;
      return { status: 201, json: meeting };
    })
    .route('GET', '/v2/meetings/:id', (req) => {
      const m = find(req.params.id);
      return m && m.status !== 'deleted' ? { json: m } : missing(req.params.id);
    })
    .route('PATCH', '/v2/meetings/:id', (req) => {
      const m = find(req.params.id);
      if (!m || m.status === 'deleted') return missing(req.params.id);
      apply(m, (req.body ?? {}) as Obj);
      state.counts.meetingsUpdated += 1;
      return { status: 204 };
    })
    .route('DELETE', '/v2/meetings/:id', (req) => {
      const m = find(req.params.id);
      if (!m || m.status === 'deleted') return missing(req.params.id);
      m.status = 'deleted';
      state.counts.meetingsDeleted += 1;
      return { status: 204 };
    })
    .route('GET', '/v2/meetings/:uuid/meeting_summary', (req) => {
      // A UUID with `/` arrives encoded twice; once decoded by the router, decode the rest.
      let uuid = req.params.uuid;
      if (uuid.includes('%')) uuid = decodeURIComponent(uuid);
      const summary = state.summaries.get(uuid);
      if (!summary) return { status: 404, json: { code: 3322, message: 'Meeting summary does not exist.' } };
      state.counts.summariesRead += 1;
      return { json: summary };
    });

  const url = await server.listen(options.port);

  return {
    url,
    server,
    oauth,
    state,
    summarize(meeting, overview) {
      const start = new Date(meeting.start_time);
      const summary = {
        meeting_host_id: meeting.host_id,
        meeting_host_email: state.user.email,
        meeting_uuid: meeting.uuid,
        meeting_id: meeting.id,
        meeting_topic: meeting.topic,
        meeting_start_time: meeting.start_time,
        meeting_end_time: noMs(new Date(start.getTime() + meeting.duration * 60000)),
        summary_start_time: meeting.start_time,
        summary_end_time: noMs(new Date(start.getTime() + meeting.duration * 60000)),
        summary_created_time: noMs(new Date()),
        summary_last_modified_time: noMs(new Date()),
        summary_title: `Meeting summary for ${meeting.topic}`,
        summary_overview: overview,
        summary_details: [{ label: 'Overview', summary: overview }],
        next_steps: [],
      };
      state.summaries.set(meeting.uuid, summary);
      return summary;
    },
    close: () => server.close(),
  };
}
