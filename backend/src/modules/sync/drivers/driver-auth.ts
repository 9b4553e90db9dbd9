import { Injectable } from '@nestjs/common';
import type { SyncProviderName } from '@studio/contracts';
import { SyncConnectionsService } from '../sync-connections.service';
import type { DriverAuth } from './sync-driver';

/** The organization has no connection to the provider (disconnected after the job was queued). */
export class ProviderNotConnectedError extends Error {
  constructor(readonly provider: SyncProviderName) {
    super(`${provider} is not connected`);
  }
}

/**
 * What a job needs to call a provider for an organization: the one place the drivers get tokens,
 * refreshed first when they are about to expire (SyncConnectionsService.auth).
 */
@Injectable()
export class DriverAuthService {
  constructor(private readonly connections: SyncConnectionsService) {}

  async auth(organizationId: string, provider: SyncProviderName): Promise<DriverAuth> {
    if (!(await this.connections.find({ organizationId }, provider))) throw new ProviderNotConnectedError(provider);
    return this.connections.auth({ organizationId }, provider);
  }
}
