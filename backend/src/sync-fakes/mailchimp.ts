import { createHash, randomBytes } from 'node:crypto';
import { FakeHttpServer, FakeRateLimit, FakeRequest, FakeResponse, Obj } from './fake-http';
import { grantOverHttp } from './fake-grant';
import { FakeOAuth, mountFakeOAuth } from './fake-oauth';

/*
 * A fake of Mailchimp's OAuth (login.mailchimp.com/oauth2/…) and Marketing API 3.0, as its
 * published reference describes them: lists (audiences), list members keyed by the subscriber
 * hash (MD5 of the lower-cased email), and batch subscribe (POST /3.0/lists/{list_id}, up to 500
 * members, update_existing). The OAuth metadata call answers this fake's own URL as the
 * account's api_endpoint, so the app's API calls come back here.
 */

export interface FakeMailchimpMember {
  id: string;
  email_address: string;
  unique_email_id: string;
  status: string;
  merge_fields: Record<string, string>;
  list_id: string;
  timestamp_signup: string;
  last_changed: string;
}

export interface FakeMailchimpList {
  id: string;
  web_id: number;
  name: string;
  date_created: string;
  members: Map<string, FakeMailchimpMember>;
}

export interface FakeMailchimpState {
  accountName: string;
  lists: Map<string, FakeMailchimpList>;
  /** Every member write, in order: created or updated, by list and email. */
  effects: { listId: string; email: string; kind: 'created' | 'updated' }[];
  /** How many times each email was created on the list (above 1 is a duplicate). */
  createdByEmail(listId: string): Map<string, number>;
  /** Answers 429 to the next API calls. */
  rateLimit: FakeRateLimit;
  /**
   * Injected faults of the member upsert (PUT), for the reliability test: the percent of emails
   * whose first PUT answers 503 before writing (`before`), or writes and then answers 503 (the
   * answer is lost, `after`). Chosen by a hash of the email, so the same emails fail every run.
   */
  faults: { before: number; after: number };
  addList(name: string): FakeMailchimpList;
}

export interface FakeMailchimp {
  url: string;
  server: FakeHttpServer;
  oauth: FakeOAuth;
  state: FakeMailchimpState;
  clientId: string;
  clientSecret: string;
  /** Connects over the fake's OAuth flow: a live access token. */
  grant(): Promise<string>;
  close(): Promise<void>;
}

const hash = (email: string) => createHash('md5').update(email.toLowerCase()).digest('hex');
const problem = (status: number, title: string, detail: string): FakeResponse => ({
  status,
  json: {
    type: 'https://mailchimp.com/developer/marketing/docs/errors/',
    title,
    status,
    detail,
    instance: randomBytes(16).toString('hex'),
  },
  headers: { 'content-type': 'application/problem+json' },
});

export async function startFakeMailchimp(
  options: {
    clientId?: string;
    clientSecret?: string;
    port?: number;
    lists?: string[];
    accountName?: string;
  } = {},
): Promise<FakeMailchimp> {
  const clientId = options.clientId ?? 'fake-mailchimp-client';
  const clientSecret = options.clientSecret ?? 'fake-mailchimp-secret';
  const server = new FakeHttpServer('mailchimp');
  const oauth = mountFakeOAuth(server, {
    clientId,
    clientSecret,
    paths: { authorize: '/oauth2/authorize', token: '/oauth2/token' },
    clientAuth: 'post',
  });
  let webId = 100;
  const state: FakeMailchimpState = {
    accountName: options.accountName ?? 'Fake Mailchimp Studio',
    lists: new Map(),
    effects: [],
    rateLimit: server.rateLimit,
    faults: { before: 0, after: 0 },
    createdByEmail(listId) {
      const counts = new Map<string, number>();
      for (const e of this.effects) {
        if (e.listId === listId && e.kind === 'created') counts.set(e.email, (counts.get(e.email) ?? 0) + 1);
      }
      return counts;
    },
    addList(name) {
      const list: FakeMailchimpList = {
        id: randomBytes(5).toString('hex'),
        web_id: webId++,
        name,
        date_created: new Date().toISOString(),
        members: new Map(),
      };
      this.lists.set(list.id, list);
      return list;
    },
  };
  for (const name of options.lists ?? ['Studio newsletter', 'Workshop alumni']) state.addList(name);

  // Every API call: a live bearer token, then the rate limit (429 with Retry-After).
  server.guardApi({
    prefix: '/3.0/',
    check: (req) =>
      oauth.requireToken(req) ? problem(401, 'API Key Invalid', 'Your request did not include a valid access token.') : null,
    tooMany: () => problem(429, 'Too Many Requests', 'You have exceeded the limit of 10 simultaneous connections.'),
  });

  server.route('GET', '/oauth2/metadata', (req) => {
    const auth = String(req.headers.authorization ?? '');
    const token = auth.replace(/^(oauth|bearer)\s+/i, '');
    const denied = oauth.requireToken({ ...req, bearer: token });
    if (denied) return { status: 401, json: { error: 'invalid_token', error_description: 'Invalid token' } };
    return {
      json: {
        dc: 'us1',
        role: 'owner',
        accountname: state.accountName,
        user_id: 4242,
        login: {
          email: 'owner@example.test',
          login_id: 4242,
          login_name: 'owner',
          login_email: 'owner@example.test',
        },
        login_url: 'https://login.mailchimp.com',
        api_endpoint: server.url,
      },
    };
  });

  const listJson = (l: FakeMailchimpList) => ({
    id: l.id,
    web_id: l.web_id,
    name: l.name,
    date_created: l.date_created,
    list_rating: 0,
    email_type_option: false,
    visibility: 'prv',
    double_optin: false,
    stats: { member_count: [...l.members.values()].filter((m) => m.status === 'subscribed').length },
  });
  const memberJson = (m: FakeMailchimpMember) => ({ ...m, email_type: 'html', vip: false, tags: [] });

  server.route('GET', '/3.0/lists', (req) => {
    const count = Math.min(1000, Number(req.query.get('count') ?? 10) || 10);
    const offset = Number(req.query.get('offset') ?? 0) || 0;
    const all = [...state.lists.values()];
    return { json: { lists: all.slice(offset, offset + count).map(listJson), total_items: all.length } };
  });

  server.route('GET', '/3.0/lists/:list_id', (req) => {
    const list = state.lists.get(req.params.list_id);
    return list
      ? { json: listJson(list) }
      : problem(404, 'Resource Not Found', 'The requested resource could not be found.');
  });

  /** Adds or updates one member, recording the effect; null when the list is unknown. */
  const write = (list: FakeMailchimpList, body: Obj, overwriteStatus: boolean) => {
    const email = String(body.email_address ?? '').toLowerCase();
    const id = hash(email);
    const now = new Date().toISOString();
    const existing = list.members.get(id);
    const merge = (body.merge_fields ?? {}) as Record<string, string>;
    if (existing) {
      existing.merge_fields = { ...existing.merge_fields, ...merge };
      if (overwriteStatus && typeof body.status === 'string') existing.status = body.status;
      existing.last_changed = now;
      state.effects.push({ listId: list.id, email, kind: 'updated' });
      return { member: existing, created: false };
    }
    const member: FakeMailchimpMember = {
      id,
      email_address: email,
      unique_email_id: randomBytes(5).toString('hex'),
      status: String(body.status ?? body.status_if_new ?? 'subscribed'),
      merge_fields: merge,
      list_id: list.id,
      timestamp_signup: now,
      last_changed: now,
    };
    list.members.set(id, member);
    state.effects.push({ listId: list.id, email, kind: 'created' });
    return { member, created: true };
  };

  // Batch subscribe or unsubscribe list members.
  server.route('POST', '/3.0/lists/:list_id', (req) => {
    const list = state.lists.get(req.params.list_id);
    if (!list) return problem(404, 'Resource Not Found', 'The requested resource could not be found.');
    const body = (req.body ?? {}) as Obj;
    const members = Array.isArray(body.members) ? (body.members as Obj[]) : null;
    if (!members)
      return problem(
        400,
        'Invalid Resource',
        'The resource submitted could not be validated: members is required.',
      );
    if (members.length > 500)
      return problem(400, 'Invalid Resource', 'You can only add up to 500 members per batch.');
    const result = { new_members: [] as object[], updated_members: [] as object[], errors: [] as object[] };
    for (const m of members) {
      const email = String(m.email_address ?? '');
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
        result.errors.push({
          email_address: email,
          error: `${email} looks fake or invalid`,
          error_code: 'ERROR_GENERIC',
        });
        continue;
      }
      if (list.members.has(hash(email)) && body.update_existing !== true) {
        result.errors.push({
          email_address: email,
          error: `${email} is already a list member`,
          error_code: 'ERROR_CONTACT_EXISTS',
        });
        continue;
      }
      const { member, created } = write(list, m, true);
      (created ? result.new_members : result.updated_members).push(memberJson(member));
    }
    return {
      json: {
        ...result,
        total_created: result.new_members.length,
        total_updated: result.updated_members.length,
        error_count: result.errors.length,
      },
    };
  });

  // Add or update a list member.
  const putSeen = new Set<string>();
  server.route('PUT', '/3.0/lists/:list_id/members/:subscriber_hash', (req: FakeRequest) => {
    const list = state.lists.get(req.params.list_id);
    if (!list) return problem(404, 'Resource Not Found', 'The requested resource could not be found.');
    const body = (req.body ?? {}) as Obj;
    const email = String(body.email_address ?? '');
    if (!email || hash(email) !== req.params.subscriber_hash.toLowerCase()) {
      return problem(400, 'Invalid Resource', 'The subscriber hash does not match the email address.');
    }
    const first = !putSeen.has(hash(email));
    putSeen.add(hash(email));
    const roll = createHash('sha1').update(`fault${email.toLowerCase()}`).digest()[0] % 100;
    const unavailable = () => problem(503, 'Service Unavailable', 'Please try again later.');
    if (first && roll < state.faults.before) return unavailable();
    const { member } = write(list, body, typeof body.status === 'string');
    if (first && roll >= state.faults.before && roll < state.faults.before + state.faults.after) return unavailable();
    return { json: memberJson(member) };
  });

  server.route('GET', '/3.0/lists/:list_id/members/:subscriber_hash', (req) => {
    const member = state.lists.get(req.params.list_id)?.members.get(req.params.subscriber_hash.toLowerCase());
    return member
      ? { json: memberJson(member) }
      : problem(404, 'Resource Not Found', 'The requested resource could not be found.');
  });

  const url = await server.listen(options.port ?? 0);
  return {
    url,
    server,
    oauth,
    state,
    clientId,
    clientSecret,
    grant: async () =>
      (
        await grantOverHttp({
          authorize: `${url}/oauth2/authorize`,
          token: `${url}/oauth2/token`,
          clientId,
          clientSecret,
          clientAuth: 'post',
        })
      ).accessToken,
    close: () => server.close(),
  };
}
