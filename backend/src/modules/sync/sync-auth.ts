import { RequestContext as OrmRequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus } from '@nestjs/common';
import { SYNC_MESSAGES as M, SyncProviderName } from '@studio/contracts';
import { ApiError } from '../../common/api-error';
import type { DriverAuth } from './drivers/sync-driver';
import { SyncConnectionsService } from './sync-connections.service';

/**
 * The one place the events sync gets a connection's token: refreshed first when it is about to
 * expire (SyncConnectionsService.auth); null when the organization is not connected.
 */
export async function driverAuth(
  connections: SyncConnectionsService,
  organizationId: string,
  provider: SyncProviderName,
): Promise<DriverAuth | null> {
  if (!(await connections.find({ organizationId }, provider))) return null;
  return connections.auth({ organizationId }, provider);
}

/** As driverAuth, for an admin call: not connected is a 409 with the contracts' message. */
export async function requireDriverAuth(
  connections: SyncConnectionsService,
  organizationId: string,
  provider: SyncProviderName,
): Promise<DriverAuth> {
  const auth = await driverAuth(connections, organizationId, provider);
  if (!auth) throw new ApiError(HttpStatus.CONFLICT, M.notConnected(provider));
  return auth;
}

/** Runs a job's work in its own MikroORM context (jobs run outside any HTTP request). */
export function inJobContext<T>(em: EntityManager, fn: () => Promise<T>): Promise<T> {
  return OrmRequestContext.create(em, fn);
}
