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
 * What a job needs to call a provider for an organization. The one place the drivers read
 * tokens: when SyncConnectionsService.auth(ctx, provider) (refresh on expiry) lands, this becomes
 * `return this.connections.auth(...)`.
 */
@Injectable()
export class DriverAuthService {
  constructor(private readonly connections: SyncConnectionsService) {}

  async auth(organizationId: string, provider: SyncProviderName): Promise<DriverAuth> {
    const tokens = await this.connections.tokens({ organizationId }, provider);
    if (!tokens) throw new ProviderNotConnectedError(provider);
    return { accessToken: tokens.accessToken, metadata: tokens.metadata };
  }
}
