import { randomBytes } from 'node:crypto';
import { FakeHttpServer, FakeRateLimit, FakeRequest, FakeResponse, Obj } from './fake-http';
import { grantOverHttp } from './fake-grant';
import { FakeOAuth, mountFakeOAuth } from './fake-oauth';

/*
 * A fake of Klaviyo's OAuth (PKCE S256, HTTP Basic client authentication, expiring access
 * tokens, revocation) and its JSON:API under /api, as the published reference describes it:
 * every call needs a `revision` header and a live bearer token; accounts, lists (cursor pages),
 * profile import (upsert by email), adding profiles to a list, and profile bulk import jobs
 * (completed at once here) with their profiles.
 */

export interface FakeKlaviyoProfile {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone_number: string | null;
  created: string;
  updated: string;
}

export interface FakeKlaviyoList {
  id: string;
  name: string;
  created: string;
  updated: string;
  /** Profile ids on the list. */
  profileIds: Set<string>;
}

export interface FakeKlaviyoImportJob {
  id: string;
  status: 'queued' | 'processing' | 'complete';
  created_at: string;
  completed_at: string | null;
  profileIds: string[];
  listIds: string[];
  /** Profiles of the request that could not be imported (an invalid email). */
  failed: number;
}

export interface FakeKlaviyoState {
  organizationName: string;
  lists: Map<string, FakeKlaviyoList>;
  /** Profiles by id (unique by email, as in Klaviyo). */
  profiles: Map<string, FakeKlaviyoProfile>;
  importJobs: Map<string, FakeKlaviyoImportJob>;
  /** Every profile write, in order: created or updated, by email. */
  effects: { email: string; kind: 'created' | 'updated' }[];
  /** How many times each email's profile was created (above 1 is a duplicate). */
  createdByEmail(): Map<string, number>;
  /** The emails on a list. */
  listEmails(listId: string): string[];
  rateLimit: FakeRateLimit;
  addList(name: string): FakeKlaviyoList;
}

export interface FakeKlaviyo {
  url: string;
  server: FakeHttpServer;
  oauth: FakeOAuth;
  state: FakeKlaviyoState;
  clientId: string;
  clientSecret: string;
  /** Connects over the fake's OAuth flow (with PKCE): a live access token. */
  grant(): Promise<string>;
  close(): Promise<void>;
}

export const KLAVIYO_SCOPES = 'accounts:read lists:read lists:write profiles:read profiles:write';
const id6 = () => randomBytes(4).toString('base64url').replace(/[-_]/g, 'x').slice(0, 6);
const ulid = () => `01${randomBytes(12).toString('hex').toUpperCase()}`;
const errors = (
  status: number,
  code: string,
  title: string,
  detail: string,
  headers?: Record<string, string>,
): FakeResponse => ({
  status,
  json: {
    errors: [
      { id: randomBytes(8).toString('hex'), status, code, title, detail, source: { pointer: '/data/' } },
    ],
  },
  headers: { 'content-type': 'application/vnd.api+json', ...headers },
});

export async function startFakeKlaviyo(
  options: {
    clientId?: string;
    clientSecret?: string;
    port?: number;
    lists?: string[];
    expiresInSeconds?: number;
    organizationName?: string;
  } = {},
): Promise<FakeKlaviyo> {
  const clientId = options.clientId ?? 'fake-klaviyo-client';
  const clientSecret = options.clientSecret ?? 'fake-klaviyo-secret';
  const server = new FakeHttpServer('klaviyo');
  const oauth = mountFakeOAuth(server, {
    clientId,
    clientSecret,
    paths: { authorize: '/oauth/authorize', token: '/oauth/token', revoke: '/oauth/revoke' },
    pkce: true,
    expiresInSeconds: options.expiresInSeconds ?? 3600,
    clientAuth: 'basic',
    defaultScope: KLAVIYO_SCOPES,
  });
  const state: FakeKlaviyoState = {
    organizationName: options.organizationName ?? 'Fake Klaviyo Studio',
    lists: new Map(),
    profiles: new Map(),
    importJobs: new Map(),
    effects: [],
    rateLimit: server.rateLimit,
    createdByEmail() {
      const counts = new Map<string, number>();
      for (const e of this.effects)
        if (e.kind === 'created') counts.set(e.email, (counts.get(e.email) ?? 0) + 1);
      return counts;
    },
    listEmails(listId) {
      return [...(this.lists.get(listId)?.profileIds ?? [])].map((p) => this.profiles.get(p)!.email);
    },
    addList(name) {
      const now = new Date().toISOString();
      const list: FakeKlaviyoList = { id: id6(), name, created: now, updated: now, profileIds: new Set() };
      this.lists.set(list.id, list);
      return list;
    },
  };
  for (const name of options.lists ?? ['Newsletter', 'Students']) state.addList(name);

  server.guardApi({
    prefix: '/api/',
    check: (req) => {
      if (!req.headers.revision)
        return errors(400, 'invalid', 'Invalid input.', 'The revision header is required.');
      if (oauth.requireToken(req)) {
        return errors(
          401,
          'not_authenticated',
          'Authentication credentials were not provided.',
          'Missing or invalid access token.',
        );
      }
      return null;
    },
    tooMany: (retryAfter) =>
      errors(
        429,
        'throttled',
        'Request was throttled.',
        `Request was throttled. Expected available in ${retryAfter} seconds.`,
      ),
  });

  const self = (path: string) => `${server.url}${path}`;
  const listJson = (l: FakeKlaviyoList) => ({
    type: 'list',
    id: l.id,
    attributes: { name: l.name, created: l.created, updated: l.updated, opt_in_process: 'single_opt_in' },
    links: { self: self(`/api/lists/${l.id}/`) },
  });
  const profileJson = (p: FakeKlaviyoProfile) => ({
    type: 'profile',
    id: p.id,
    attributes: {
      email: p.email,
      phone_number: p.phone_number,
      external_id: null,
      first_name: p.first_name,
      last_name: p.last_name,
      organization: null,
      locale: null,
      title: null,
      image: null,
      created: p.created,
      updated: p.updated,
      last_event_date: null,
      location: {},
      properties: {},
    },
    links: { self: self(`/api/profiles/${p.id}/`) },
  });
  const jobJson = (j: FakeKlaviyoImportJob) => ({
    type: 'profile-bulk-import-job',
    id: j.id,
    attributes: {
      status: j.status,
      created_at: j.created_at,
      total_count: j.profileIds.length + j.failed,
      completed_count: j.status === 'complete' ? j.profileIds.length : 0,
      failed_count: j.failed,
      completed_at: j.completed_at,
      expires_at: new Date(Date.parse(j.created_at) + 7 * 86_400_000).toISOString(),
      started_at: j.created_at,
    },
    links: { self: self(`/api/profile-bulk-import-jobs/${j.id}/`) },
  });
  /** A cursor page of a collection (`page[size]`, `page[cursor]` = the offset here). */
  const page = <T>(req: FakeRequest, all: T[], path: string, max: number, fallback: number) => {
    const size = Math.min(max, Number(req.query.get('page[size]') ?? fallback) || fallback);
    const offset = Number(req.query.get('page[cursor]') ?? 0) || 0;
    const next =
      offset + size < all.length ? self(`${path}?page[cursor]=${offset + size}&page[size]=${size}`) : null;
    return { items: all.slice(offset, offset + size), links: { self: self(path), next, prev: null } };
  };

  /** Creates or updates a profile by email, recording the effect. */
  const upsertProfile = (attributes: Obj): { profile: FakeKlaviyoProfile; created: boolean } | null => {
    const email = String(attributes.email ?? '').toLowerCase();
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) return null;
    const now = new Date().toISOString();
    const existing = [...state.profiles.values()].find((p) => p.email === email);
    const fields = {
      first_name: (attributes.first_name as string | undefined) ?? existing?.first_name ?? null,
      last_name: (attributes.last_name as string | undefined) ?? existing?.last_name ?? null,
      phone_number: (attributes.phone_number as string | undefined) ?? existing?.phone_number ?? null,
    };
    if (existing) {
      Object.assign(existing, fields, { updated: now });
      state.effects.push({ email, kind: 'updated' });
      return { profile: existing, created: false };
    }
    const profile: FakeKlaviyoProfile = { id: ulid(), email, ...fields, created: now, updated: now };
    state.profiles.set(profile.id, profile);
    state.effects.push({ email, kind: 'created' });
    return { profile, created: true };
  };

  server.route('GET', '/api/accounts', () => ({
    json: {
      data: [
        {
          type: 'account',
          id: 'AbC123',
          attributes: {
            test_account: false,
            contact_information: {
              default_sender_name: state.organizationName,
              default_sender_email: 'hello@example.test',
              website_url: 'https://example.test',
              organization_name: state.organizationName,
              street_address: {
                address1: '1 Main St',
                address2: null,
                city: 'Boston',
                region: 'MA',
                country: 'US',
                zip: '02110',
              },
            },
            industry: 'Education',
            timezone: 'America/New_York',
            preferred_currency: 'USD',
            public_api_key: 'AbC123',
            locale: 'en-US',
          },
          links: { self: self('/api/accounts/AbC123/') },
        },
      ],
      links: { self: self('/api/accounts/'), next: null, prev: null },
    },
  }));

  server.route('GET', '/api/lists', (req) => {
    const { items, links } = page(req, [...state.lists.values()], '/api/lists/', 10, 10);
    return { json: { data: items.map(listJson), links } };
  });

  server.route('POST', '/api/profile-import', (req) => {
    const data = ((req.body ?? {}) as Obj).data as Obj | undefined;
    if (data?.type !== 'profile')
      return errors(400, 'invalid', 'Invalid input.', 'data.type must be profile.');
    const result = upsertProfile((data.attributes ?? {}) as Obj);
    if (!result) return errors(400, 'invalid', 'Invalid input.', 'Invalid email address.');
    return {
      status: result.created ? 201 : 200,
      json: { data: profileJson(result.profile), links: { self: self('/api/profile-import/') } },
    };
  });

  server.route('POST', '/api/lists/:id/relationships/profiles', (req) => {
    const list = state.lists.get(req.params.id);
    if (!list)
      return errors(404, 'not_found', 'Not found.', `A list with id ${req.params.id} does not exist.`);
    const data = (((req.body ?? {}) as Obj).data ?? []) as Obj[];
    for (const ref of data) {
      if (ref.type !== 'profile' || !state.profiles.has(String(ref.id))) {
        return errors(400, 'invalid', 'Invalid input.', `Profile ${String(ref.id)} does not exist.`);
      }
    }
    for (const ref of data) list.profileIds.add(String(ref.id));
    return { status: 204, text: '' };
  });

  server.route('POST', '/api/profile-bulk-import-jobs', (req) => {
    const data = ((req.body ?? {}) as Obj).data as Obj | undefined;
    if (data?.type !== 'profile-bulk-import-job') {
      return errors(400, 'invalid', 'Invalid input.', 'data.type must be profile-bulk-import-job.');
    }
    const profiles = ((((data.attributes ?? {}) as Obj).profiles ?? {}) as Obj).data as Obj[] | undefined;
    if (!Array.isArray(profiles) || profiles.length === 0)
      return errors(400, 'invalid', 'Invalid input.', 'profiles are required.');
    if (profiles.length > 10_000)
      return errors(400, 'invalid', 'Invalid input.', 'At most 10,000 profiles per job.');
    const listRefs = (((((data.relationships ?? {}) as Obj).lists ?? {}) as Obj).data ?? []) as Obj[];
    const lists = listRefs.map((l) => state.lists.get(String(l.id)));
    if (lists.some((l) => !l))
      return errors(404, 'not_found', 'Not found.', 'A list of the job does not exist.');
    const now = new Date().toISOString();
    const job: FakeKlaviyoImportJob = {
      id: ulid(),
      status: 'complete',
      created_at: now,
      completed_at: now,
      profileIds: [],
      listIds: lists.map((l) => l!.id),
      failed: 0,
    };
    for (const p of profiles) {
      const result = upsertProfile(((p as Obj).attributes ?? {}) as Obj);
      if (!result) {
        job.failed += 1;
        continue;
      }
      job.profileIds.push(result.profile.id);
      for (const l of lists) l!.profileIds.add(result.profile.id);
    }
    state.importJobs.set(job.id, job);
    return {
      status: 202,
      json: { data: jobJson(job), links: { self: self('/api/profile-bulk-import-jobs/') } },
    };
  });

  server.route('GET', '/api/profile-bulk-import-jobs/:id', (req) => {
    const job = state.importJobs.get(req.params.id);
    return job ? { json: { data: jobJson(job) } } : errors(404, 'not_found', 'Not found.', 'No such job.');
  });

  server.route('GET', '/api/profile-bulk-import-jobs/:id/profiles', (req) => {
    const job = state.importJobs.get(req.params.id);
    if (!job) return errors(404, 'not_found', 'Not found.', 'No such job.');
    const all = job.profileIds.map((p) => state.profiles.get(p)!);
    const { items, links } = page(req, all, `/api/profile-bulk-import-jobs/${job.id}/profiles/`, 100, 20);
    return { json: { data: items.map(profileJson), links } };
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
          authorize: `${url}/oauth/authorize`,
          token: `${url}/oauth/token`,
          clientId,
          clientSecret,
          clientAuth: 'basic',
          pkce: true,
          scope: KLAVIYO_SCOPES,
        })
      ).accessToken,
    close: () => server.close(),
  };
}
