import { Expose, plainToInstance, Type } from 'class-transformer';

/*
 * Klaviyo API resources as this app reads them (one class per resource). Klaviyo answers JSON:API
 * (`{ data: { type, id, attributes } }`): a resource's id and attributes are read into one class,
 * with the snake_case names and date strings mapped here. The drivers read the raw JSON (the
 * SDK's response.data), so these classes are the only mapping.
 */

type JsonApiResource = { id?: string; attributes?: Record<string, unknown> };

const read = <T>(cls: new () => T, resource: unknown): T => {
  const r = (resource ?? {}) as JsonApiResource;
  return plainToInstance(
    cls,
    { id: r.id, ...r.attributes },
    { excludeExtraneousValues: true, exposeDefaultValues: true },
  );
};
const many = <T>(cls: new () => T, document: unknown): T[] =>
  (((document as { data?: unknown[] } | null)?.data ?? []) as unknown[]).map((r) => read(cls, r));
const one = <T>(cls: new () => T, document: unknown): T =>
  read(cls, (document as { data?: unknown } | null)?.data);

export class KlaviyoContactInformation {
  @Expose({ name: 'organization_name' }) organizationName!: string;
  @Expose({ name: 'default_sender_email' }) defaultSenderEmail!: string;
}

/** GET /api/accounts: the connected account (the organization name is what the panel shows). */
export class KlaviyoAccount {
  @Expose() id!: string;
  @Expose({ name: 'contact_information' })
  @Type(() => KlaviyoContactInformation)
  contact!: KlaviyoContactInformation;
  @Expose() timezone!: string;
  @Expose({ name: 'public_api_key' }) publicApiKey!: string;

  static fromCollection(document: unknown): KlaviyoAccount[] {
    return many(KlaviyoAccount, document);
  }
}

/** GET /api/lists. */
export class KlaviyoList {
  @Expose() id!: string;
  @Expose() name!: string;
  @Expose({ name: 'opt_in_process' }) optInProcess!: string;
  @Expose() @Type(() => Date) created!: Date;
  @Expose() @Type(() => Date) updated!: Date;

  static fromCollection(document: unknown): KlaviyoList[] {
    return many(KlaviyoList, document);
  }
}

/** A profile (POST /api/profile-import answers one; a bulk import job's profiles are a collection). */
export class KlaviyoProfile {
  @Expose() id!: string;
  @Expose() email!: string;
  @Expose({ name: 'first_name' }) firstName!: string | null;
  @Expose({ name: 'last_name' }) lastName!: string | null;
  @Expose({ name: 'phone_number' }) phoneNumber!: string | null;
  @Expose() @Type(() => Date) created!: Date;
  @Expose() @Type(() => Date) updated!: Date;

  static from(document: unknown): KlaviyoProfile {
    return one(KlaviyoProfile, document);
  }
  static fromCollection(document: unknown): KlaviyoProfile[] {
    return many(KlaviyoProfile, document);
  }
}

/** POST/GET /api/profile-bulk-import-jobs: an asynchronous import of up to 10,000 profiles. */
export class KlaviyoBulkImportJob {
  @Expose() id!: string;
  /** queued, processing, complete, cancelled or failed. */
  @Expose() status!: string;
  @Expose({ name: 'total_count' }) totalCount!: number;
  @Expose({ name: 'completed_count' }) completedCount!: number | null;
  @Expose({ name: 'failed_count' }) failedCount!: number | null;
  @Expose({ name: 'created_at' }) @Type(() => Date) createdAt!: Date;
  @Expose({ name: 'completed_at' }) @Type(() => Date) completedAt!: Date | null;

  get done(): boolean {
    return this.status === 'complete' || this.status === 'failed' || this.status === 'cancelled';
  }

  static from(document: unknown): KlaviyoBulkImportJob {
    return one(KlaviyoBulkImportJob, document);
  }
}

/** The `links.next` cursor of a collection, or null on the last page. */
export function nextPageCursor(document: unknown): string | null {
  const next = (document as { links?: { next?: string | null } } | null)?.links?.next;
  return next ? new URL(next).searchParams.get('page[cursor]') : null;
}
