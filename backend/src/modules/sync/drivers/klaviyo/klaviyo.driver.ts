import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../../../config/config.module';
import type { AppConfig } from '../../../../config/config.schema';
import { providerEndpoints } from '../../provider-endpoints';
import type { DriverAuth, ProviderAccount, ProviderPickers, SyncDriver } from '../sync-driver';
import { KlaviyoClient } from './klaviyo.client';

/** Klaviyo (mailing list): the account's organization name (GET /api/accounts) and its lists. */
@Injectable()
export class KlaviyoDriver implements SyncDriver {
  readonly provider = 'klaviyo' as const;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  client(accessToken: string): KlaviyoClient {
    return new KlaviyoClient(accessToken, providerEndpoints(this.config, 'klaviyo').api);
  }

  async identify(accessToken: string): Promise<ProviderAccount> {
    const account = await this.client(accessToken).account();
    return {
      accountName: account?.contact?.organizationName ?? null,
      metadata: account ? { account_id: account.id } : {},
    };
  }

  async pickers(auth: DriverAuth): Promise<ProviderPickers> {
    const lists = await this.client(auth.accessToken).lists();
    return { lists: lists.map((l) => ({ id: l.id, name: l.name })) };
  }
}
