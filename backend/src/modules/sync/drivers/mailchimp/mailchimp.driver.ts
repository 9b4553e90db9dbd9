import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../../../config/config.module';
import type { AppConfig } from '../../../../config/config.schema';
import { providerEndpoints } from '../../provider-endpoints';
import { providerError } from '../provider-errors';
import type { DriverAuth, ProviderAccount, ProviderPickers, SyncDriver } from '../sync-driver';
import { MailchimpClient } from './mailchimp.client';
import { MailchimpAccount } from './mailchimp.resources';

/** Mailchimp (mailing list): the account from the OAuth metadata call, and its lists (audiences). */
@Injectable()
export class MailchimpDriver implements SyncDriver {
  readonly provider = 'mailchimp' as const;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * The OAuth metadata endpoint names the account and its data centre; its `api_endpoint` is the
   * account's API host, kept in the connection's metadata for every later call.
   */
  async identify(accessToken: string): Promise<ProviderAccount> {
    const url = providerEndpoints(this.config, 'mailchimp').metadata!;
    const res = await fetch(url, {
      headers: { authorization: `OAuth ${accessToken}`, accept: 'application/json' },
    });
    if (!res.ok) {
      throw providerError('mailchimp', res.status, Object.fromEntries(res.headers), await res.text(), null);
    }
    const account = MailchimpAccount.from(await res.json());
    return {
      accountName: account.accountName ?? null,
      metadata: { api_endpoint: account.apiEndpoint, dc: account.dc },
    };
  }

  async pickers(auth: DriverAuth): Promise<ProviderPickers> {
    const lists = await new MailchimpClient(auth).lists();
    return { lists: lists.map((l) => ({ id: l.id, name: l.name })) };
  }
}
