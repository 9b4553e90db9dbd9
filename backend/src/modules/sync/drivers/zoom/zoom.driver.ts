import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../../../config/config.module';
import type { AppConfig } from '../../../../config/config.schema';
import { providerEndpoints } from '../../provider-endpoints';
import { ProviderAccount, ProviderPickers, SyncDriver } from '../sync-driver';
import { ZoomClient } from './zoom.client';

/** Zoom (video meetings): who connected; Zoom has nothing to pick. */
@Injectable()
export class ZoomDriver implements SyncDriver {
  readonly provider = 'zoom' as const;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  client(accessToken: string): ZoomClient {
    return new ZoomClient(providerEndpoints(this.config, 'zoom').api, accessToken);
  }

  async identify(accessToken: string): Promise<ProviderAccount> {
    const me = await this.client(accessToken).me();
    const name = me.displayName || [me.firstName, me.lastName].filter(Boolean).join(' ') || null;
    return { accountName: name ?? me.email, metadata: { user_id: String(me.id) } };
  }

  async pickers(): Promise<ProviderPickers> {
    return {};
  }
}
