import { createHash } from 'node:crypto';
import { providerError } from '../provider-errors';
import type { DriverAuth } from '../sync-driver';
import { MailchimpBatchResult, MailchimpList, MailchimpMember } from './mailchimp.resources';

/*
 * The official SDK's module export (`@mailchimp/mailchimp_marketing`) is one shared ApiClient
 * whose `setConfig` is global: two organizations' jobs running at once would swap tokens. Its
 * ApiClient class, though, builds an independent client (own config, basePath, API objects), so
 * each call makes its own instance for one organization's token and API host.
 */
interface SdkLists {
  getAllLists(opts: { count?: number; offset?: number; fields?: string[] }): Promise<unknown>;
  batchListMembers(listId: string, body: object, opts?: object): Promise<unknown>;
  setListMember(listId: string, subscriberHash: string, body: object, opts?: object): Promise<unknown>;
}
interface SdkApiClient {
  basePath: string;
  timeout: number;
  setConfig(config: { accessToken: string }): void;
  lists: SdkLists;
}
/** Loaded on the first client, not at boot (issue 12: the API starts in under 3 s). */
function sdkApiClient(): new () => SdkApiClient {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@mailchimp/mailchimp_marketing/src/ApiClient') as new () => SdkApiClient;
}

/** Mailchimp's batch subscribe takes at most 500 members per call. */
export const MAILCHIMP_BATCH_MAX = 500;

export interface MailchimpContact {
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
}

export const subscriberHash = (email: string) => createHash('md5').update(email.toLowerCase()).digest('hex');

export class MailchimpClient {
  private readonly sdk: SdkApiClient;

  constructor(auth: DriverAuth) {
    const endpoint = auth.metadata.api_endpoint;
    if (!endpoint) throw new Error('Mailchimp connection has no api_endpoint: connect Mailchimp again');
    this.sdk = new (sdkApiClient())();
    this.sdk.basePath = `${endpoint.replace(/\/+$/, '')}/3.0`;
    this.sdk.timeout = 30_000;
    // No `server` key: the SDK would rewrite the word "server" in the URL with it.
    this.sdk.setConfig({ accessToken: auth.accessToken });
  }

  async lists(): Promise<MailchimpList[]> {
    const all: MailchimpList[] = [];
    for (let offset = 0; ; offset += 1000) {
      const page = MailchimpList.fromCollection(
        await this.call(() => this.sdk.lists.getAllLists({ count: 1000, offset })),
      );
      all.push(...page);
      if (page.length < 1000) return all;
    }
  }

  /** Batch subscribe (POST /lists/{id}) with update_existing: a member already there is updated, never duplicated. */
  async batchUpsert(listId: string, contacts: MailchimpContact[]): Promise<MailchimpBatchResult> {
    if (contacts.length > MAILCHIMP_BATCH_MAX)
      throw new Error(`at most ${MAILCHIMP_BATCH_MAX} members per batch`);
    const body = {
      members: contacts.map((c) => ({
        email_address: c.email,
        status: 'subscribed',
        merge_fields: mergeFields(c),
      })),
      update_existing: true,
    };
    return MailchimpBatchResult.from(await this.call(() => this.sdk.lists.batchListMembers(listId, body)));
  }

  /** Add or update one member (PUT /lists/{id}/members/{subscriber_hash}). */
  async upsertMember(listId: string, contact: MailchimpContact): Promise<MailchimpMember> {
    const body = {
      email_address: contact.email,
      status_if_new: 'subscribed',
      merge_fields: mergeFields(contact),
    };
    return MailchimpMember.from(
      await this.call(() => this.sdk.lists.setListMember(listId, subscriberHash(contact.email), body)),
    );
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      const e = error as {
        status?: number;
        response?: { headers?: Record<string, unknown>; body?: { detail?: string } };
      };
      throw providerError(
        'mailchimp',
        e.status,
        e.response?.headers,
        e.response?.body?.detail ?? String(error),
        error,
      );
    }
  }
}

function mergeFields(c: MailchimpContact): Record<string, string> {
  return { FNAME: c.firstName, LNAME: c.lastName, ...(c.phone ? { PHONE: c.phone } : {}) };
}
