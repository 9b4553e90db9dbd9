import { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { SyncConnectionsService } from '../src/modules/sync/sync-connections.service';
import { SyncSettingsService } from '../src/modules/sync/sync-settings.service';
import { SyncSwitches } from '../src/modules/sync/sync-switches';
import { scheduleSession, schedulableCourse } from './support/scheduling-fixtures';
import { connect } from './support/sync-fixtures';
import { startTestApp, TestApp } from './test-app';

/**
 * The session-save hot path (EventsSyncListener.sessionSaved): which providers are connected, and
 * Eventbrite's sync_all_courses, come from the cached SyncSwitches, read once per organization and
 * kept a few seconds, dropped at once when this process saves the settings or connects or
 * disconnects a provider. Workers are off: an enqueued job stays queued, so its mapping row shows
 * what the listener decided.
 */
describe('sync switches (the session save hot path)', () => {
  let t: TestApp;
  let org: { token: string; organizationId: string };
  let course: { activity_id: string; location_id: string; instructor_id: string };

  const em = () => t.created.app.get(EntityManager);
  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
    em().getConnection().execute<T[]>(query, params);
  /** The job enqueued for the session at the provider, if any. */
  const enqueued = async (provider: 'eventbrite' | 'zoom', eventId: string) => {
    const [row] = await sql<{ action: string }>(
      `select action from sync_mapping
        where organization_id = ? and provider = ? and local_type = 'event' and local_id = ?`,
      [org.organizationId, provider, eventId],
    );
    return row?.action ?? null;
  };
  const edit = (eventId: string, capacity: number) =>
    t.http.put(`/api/admin/events/${eventId}`).set('token', org.token).send({ capacity, price: 4500 }).expect(200);
  const fakeGrant = { access_token: 'token-not-used-here', refresh_token: 'refresh-not-used-here' };

  beforeAll(async () => {
    t = await startTestApp({
      SYNC_TOKEN_KEY: randomBytes(32).toString('base64'),
      QUEUE_MODE: 'in-process',
      RUN_WORKER: 'false',
    });
    const owner = await t.organizationWithUser('owner', 'Session Save Ceramics');
    org = { token: owner.token, organizationId: owner.organization.id };
    const refs = await schedulableCourse(t, org.token);
    const location = await t.http
      .post('/api/admin/location')
      .set('token', org.token)
      .send({ name: 'Live stream', address: 'From the studio', timezone: 'America/New_York', online: true })
      .expect(201);
    course = { ...refs, location_id: location.body.location_id as string };
    await connect(t, org.organizationId, 'eventbrite', fakeGrant);
    await connect(t, org.organizationId, 'zoom', fakeGrant);
    // What the connections announced (the Eventbrite poll schedule) is carried out before the saves are counted.
    await t.settle();
  }, 120000);
  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.close();
  });
  afterEach(() => jest.restoreAllMocks());

  it('ten saves of sessions of one organization read its connections and settings once', async () => {
    const switches = t.created.app.get(SyncSwitches);
    switches.invalidate(org.organizationId);
    const reads = jest.spyOn(switches, 'read');
    const configReads = jest.spyOn(t.created.app.get(SyncSettingsService), 'config');
    const connectionReads = jest.spyOn(t.created.app.get(SyncConnectionsService), 'find');
    const execute = jest.spyOn(em().getConnection(), 'execute');
    // The app's time stands still during the saves: however slow the machine, they fall in one cache window.
    jest.spyOn(t.clock, 'nowMs').mockReturnValue(t.clock.nowMs());
    const id = await scheduleSession(t, org.token, course, { daysFromNow: 9, capacity: 4 });
    for (let i = 0; i < 9; i++) await edit(id, 5 + i);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(configReads).not.toHaveBeenCalled();
    expect(connectionReads).not.toHaveBeenCalled();
    const settingsQueries = execute.mock.calls.filter(([query]) => /\b(sync_config|sync_connection)\b/.test(String(query)));
    expect(settingsQueries).toHaveLength(1);
    // Zoom is connected and the location online: a meeting; Eventbrite syncs no course yet: nothing.
    expect(await enqueued('zoom', id)).toBe('meeting.upsert');
    expect(await enqueued('eventbrite', id)).toBeNull();
  });

  it('a settings save is seen by the very next session save in this process, and a disconnect too', async () => {
    const switches = t.created.app.get(SyncSwitches);
    const first = await scheduleSession(t, org.token, course, { daysFromNow: 10 });
    expect((await switches.of(org.organizationId)).eventbrite.config.sync_all_courses).toBe(false); // cached
    expect(await enqueued('eventbrite', first)).toBeNull();

    await t.http
      .put('/api/admin/sync/providers/config_schema')
      .set('token', org.token)
      .send({ provider_name: 'eventbrite', sync_all_courses: true })
      .expect(200);
    await edit(first, 7);
    expect(await enqueued('eventbrite', first)).toBe('event.upsert');

    await t.http.delete('/api/admin/sync/providers/zoom/connection').set('token', org.token).expect(204);
    const second = await scheduleSession(t, org.token, course, { daysFromNow: 11 });
    expect(await enqueued('zoom', second)).toBeNull();
    expect(await enqueued('eventbrite', second)).toBe('event.upsert');

    await connect(t, org.organizationId, 'zoom', fakeGrant);
    await edit(second, 6);
    expect(await enqueued('zoom', second)).toBe('meeting.upsert');
  });
});
