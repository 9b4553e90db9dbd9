import type {
  AccountsApi,
  ListMembersAddQuery,
  ListsApi,
  ProfileImportJobCreateQuery,
  ProfilesApi,
  ProfileUpsertQuery,
} from 'klaviyo-api';
import { providerError } from '../provider-errors';
import {
  KlaviyoAccount,
  KlaviyoBulkImportJob,
  KlaviyoList,
  KlaviyoProfile,
  nextPageCursor,
} from './klaviyo.resources';

/** A bulk import job takes up to 10,000 profiles; a page of the backfill is far below. */
export const KLAVIYO_BULK_MAX = 10_000;

export interface KlaviyoContact {
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
}

/**
 * The official SDK's API classes, each built per call with its own OAuth bearer session and base
 * path (no global state: organizations cannot mix tokens). The session's own retry is off: a
 * 429 goes back to the worker as ProviderRateLimitedError, which honours Retry-After through the
 * queue instead of sleeping inside the job. Answers are read from the raw JSON (response.data)
 * into this driver's classes.
 */
export class KlaviyoClient {
  private readonly accounts: AccountsApi;
  private readonly listsApi: ListsApi;
  private readonly profiles: ProfilesApi;

  constructor(accessToken: string, basePath: string) {
    // Loaded on the first client, not at boot: the SDK took the largest share of the API's start
    // (issue 12: npm start is up in under 3 s), and most studios never connect Klaviyo.
    const { AccountsApi, ListsApi, OAuthBasicSession, ProfilesApi, RetryWithExponentialBackoff } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('klaviyo-api') as typeof import('klaviyo-api');
    const session = new OAuthBasicSession(
      accessToken,
      new RetryWithExponentialBackoff({ numRetries: 0, retryCodes: [] }),
    );
    this.accounts = new AccountsApi(session);
    this.listsApi = new ListsApi(session);
    this.profiles = new ProfilesApi(session);
    for (const api of [this.accounts, this.listsApi, this.profiles]) api.basePath = basePath;
  }

  async account(): Promise<KlaviyoAccount | null> {
    const res = await this.call(() => this.accounts.getAccounts());
    return KlaviyoAccount.fromCollection(res.response.data)[0] ?? null;
  }

  async lists(): Promise<KlaviyoList[]> {
    const all: KlaviyoList[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const res = await this.call(() => this.listsApi.getLists({ pageCursor: cursor }));
      all.push(...KlaviyoList.fromCollection(res.response.data));
      cursor = nextPageCursor(res.response.data) ?? undefined;
      if (!cursor) break;
    }
    return all;
  }

  /** Creates or updates one profile (POST /api/profile-import, matched by email) and adds it to the list. */
  async upsertOnList(listId: string, contact: KlaviyoContact): Promise<KlaviyoProfile> {
    const query = {
      data: { type: 'profile', attributes: attributes(contact) },
    } as unknown as ProfileUpsertQuery;
    const res = await this.call(() => this.profiles.createOrUpdateProfile(query));
    const profile = KlaviyoProfile.from(res.response.data);
    const members = { data: [{ type: 'profile', id: profile.id }] } as unknown as ListMembersAddQuery;
    await this.call(() => this.listsApi.addProfilesToList(listId, members));
    return profile;
  }

  /** Starts a bulk import job (POST /api/profile-bulk-import-jobs) that upserts the profiles by email onto the list. */
  async startBulkImport(listId: string, contacts: KlaviyoContact[]): Promise<KlaviyoBulkImportJob> {
    if (contacts.length > KLAVIYO_BULK_MAX)
      throw new Error(`at most ${KLAVIYO_BULK_MAX} profiles per import`);
    const query = {
      data: {
        type: 'profile-bulk-import-job',
        attributes: {
          profiles: { data: contacts.map((c) => ({ type: 'profile', attributes: attributes(c) })) },
        },
        relationships: { lists: { data: [{ type: 'list', id: listId }] } },
      },
    } as unknown as ProfileImportJobCreateQuery;
    const res = await this.call(() => this.profiles.bulkImportProfiles(query));
    return KlaviyoBulkImportJob.from(res.response.data);
  }

  async bulkImport(id: string): Promise<KlaviyoBulkImportJob> {
    const res = await this.call(() => this.profiles.getBulkImportProfilesJob(id));
    return KlaviyoBulkImportJob.from(res.response.data);
  }

  /** The profiles a finished bulk import created or updated (100 a page). */
  async bulkImportProfiles(id: string): Promise<KlaviyoProfile[]> {
    const all: KlaviyoProfile[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 200; pages++) {
      const res = await this.call(() =>
        this.profiles.getProfilesForBulkImportProfilesJob(id, { pageSize: 100, pageCursor: cursor }),
      );
      all.push(...KlaviyoProfile.fromCollection(res.response.data));
      cursor = nextPageCursor(res.response.data) ?? undefined;
      if (!cursor) break;
    }
    return all;
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      // The SDK rejects with axios's error: the answer is on `response`.
      const response = (
        error as { response?: { status: number; headers: Record<string, unknown>; data: unknown } }
      ).response;
      if (!response) throw error;
      const body = response.data as { errors?: { detail?: string }[] } | undefined;
      throw providerError(
        'klaviyo',
        response.status,
        response.headers,
        body?.errors?.[0]?.detail ?? String(error),
        error,
      );
    }
  }
}

/** The SDK's model names (camelCase): its serializer writes them as Klaviyo's snake_case. */
function attributes(c: KlaviyoContact): Record<string, string> {
  return {
    email: c.email,
    firstName: c.firstName,
    lastName: c.lastName,
    // Klaviyo takes E.164 numbers only; another format is left out rather than refused.
    ...(c.phone && /^\+[1-9]\d{6,14}$/.test(c.phone) ? { phoneNumber: c.phone } : {}),
  };
}
