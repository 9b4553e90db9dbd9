import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../../../config/config.module';
import type { AppConfig } from '../../../../config/config.schema';
import { providerEndpoints } from '../../provider-endpoints';
import { DriverAuth, ProviderAccount, ProviderPickers, SyncDriver } from '../sync-driver';
import { EventbriteClient } from './eventbrite.client';

/** Eventbrite (ticketing): who connected, and the organizations the panel picks from. */
@Injectable()
export class EventbriteDriver implements SyncDriver {
  readonly provider = 'eventbrite' as const;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  client(accessToken: string): EventbriteClient {
    return new EventbriteClient(providerEndpoints(this.config, 'eventbrite').api, accessToken);
  }

  async identify(accessToken: string): Promise<ProviderAccount> {
    const me = await this.client(accessToken).me();
    const email = me.emails.find((e) => e.primary)?.email ?? me.emails[0]?.email ?? null;
    return {
      accountName: me.name || [me.firstName, me.lastName].filter(Boolean).join(' ') || email,
      metadata: { user_id: String(me.id) },
    };
  }

  async pickers(auth: DriverAuth): Promise<ProviderPickers> {
    const organizations = await this.client(auth.accessToken).organizations();
    return { organizations: organizations.map((o) => ({ id: String(o.id), name: o.name })) };
  }
}
