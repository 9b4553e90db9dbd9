import { RequestContext as OrmContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import type { SyncProviderName } from '@studio/contracts';
import { SyncConnectionsService } from '../../src/modules/sync/sync-connections.service';
import { TestApp } from '../test-app';

/** Gets a real token from a fake's OAuth server (code flow), as the OAuth branch's Connect would. */
export async function fakeToken(
  fakeUrl: string,
  client: { id: string; secret: string },
  auth: 'post' | 'basic',
): Promise<{ access_token: string; refresh_token: string; expires_in?: number }> {
  const redirect = 'http://127.0.0.1/callback';
  const authorize = await fetch(
    `${fakeUrl}/oauth/authorize?${new URLSearchParams({ client_id: client.id, redirect_uri: redirect, response_type: 'code', state: 's' })}`,
    { redirect: 'manual' },
  );
  const code = new URL(authorize.headers.get('location')!).searchParams.get('code')!;
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirect });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (auth === 'post') {
    form.set('client_id', client.id);
    form.set('client_secret', client.secret);
  } else headers.authorization = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`;
  const res = await fetch(`${fakeUrl}/oauth/token`, { method: 'POST', headers, body: form });
  if (!res.ok) throw new Error(`token exchange failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { access_token: string; refresh_token: string; expires_in?: number };
}

/** Stores a connection directly (the OAuth flow is another branch's). */
export async function connect(
  t: TestApp,
  organizationId: string,
  provider: SyncProviderName,
  token: { access_token: string; refresh_token: string; expires_in?: number },
  metadata: Record<string, string> = {},
) {
  const em = t.created.app.get(EntityManager);
  await OrmContext.create(em, () =>
    t.created.app.get(SyncConnectionsService).store({ organizationId }, provider, {
      accountName: 'Riley Studio',
      accessToken: token.access_token,
      refreshToken: token.refresh_token,
      scopes: [],
      expiresAt: token.expires_in ? new Date(Date.now() + token.expires_in * 1000) : null,
      metadata,
    }),
  );
}

/** The mapping of a record, read straight from the sync tables. */
export async function mappingOf(t: TestApp, organizationId: string, provider: SyncProviderName, localType: string, localId: string) {
  return t.withEm(async (em) => {
    const [row] = await em
      .getConnection()
      .execute<{ remote_id: string | null; stage: string; last_error: string | null }[]>(
        `select remote_id, stage, last_error from sync_mapping
          where organization_id = ? and provider = ? and local_type = ? and local_id = ?`,
        [organizationId, provider, localType, localId],
      );
    return row ?? null;
  });
}
