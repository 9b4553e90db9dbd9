import { Expose, plainToInstance, Type } from 'class-transformer';

/*
 * Mailchimp Marketing API resources as this app reads them (one class per resource). The JSON's
 * snake_case names and date strings are mapped here, and nowhere else.
 */

const read = <T>(cls: new () => T, plain: unknown): T =>
  plainToInstance(cls, plain as object, { excludeExtraneousValues: true, exposeDefaultValues: true });

/** GET https://login.mailchimp.com/oauth2/metadata: who connected, and the account's API host. */
export class MailchimpAccount {
  @Expose({ name: 'accountname' }) accountName!: string;
  @Expose() dc!: string;
  @Expose({ name: 'api_endpoint' }) apiEndpoint!: string;

  static from(plain: unknown): MailchimpAccount {
    return read(MailchimpAccount, plain);
  }
}

export class MailchimpListStats {
  @Expose({ name: 'member_count' }) memberCount!: number;
}

/** A list (an "audience"): GET /3.0/lists. */
export class MailchimpList {
  @Expose() id!: string;
  @Expose() name!: string;
  @Expose({ name: 'date_created' }) @Type(() => Date) createdAt!: Date;
  @Expose() @Type(() => MailchimpListStats) stats!: MailchimpListStats;

  static fromCollection(plain: unknown): MailchimpList[] {
    const lists = (plain as { lists?: unknown[] } | null)?.lists ?? [];
    return lists.map((l) => read(MailchimpList, l));
  }
}

/** A list member; its `id` is the subscriber hash (MD5 of the lower-cased email). */
export class MailchimpMember {
  @Expose() id!: string;
  @Expose({ name: 'email_address' }) email!: string;
  @Expose() status!: string;
  @Expose({ name: 'list_id' }) listId!: string;
  @Expose({ name: 'last_changed' }) @Type(() => Date) lastChanged!: Date;

  static from(plain: unknown): MailchimpMember {
    return read(MailchimpMember, plain);
  }
}

export class MailchimpBatchError {
  @Expose({ name: 'email_address' }) email!: string;
  @Expose() error!: string;
  @Expose({ name: 'error_code' }) code!: string;
}

/** The answer of POST /3.0/lists/{list_id} (batch subscribe or unsubscribe, up to 500 members). */
export class MailchimpBatchResult {
  @Expose({ name: 'new_members' }) @Type(() => MailchimpMember) newMembers: MailchimpMember[] = [];
  @Expose({ name: 'updated_members' }) @Type(() => MailchimpMember) updatedMembers: MailchimpMember[] = [];
  @Expose() @Type(() => MailchimpBatchError) errors: MailchimpBatchError[] = [];
  @Expose({ name: 'total_created' }) totalCreated!: number;
  @Expose({ name: 'total_updated' }) totalUpdated!: number;
  @Expose({ name: 'error_count' }) errorCount!: number;

  static from(plain: unknown): MailchimpBatchResult {
    return read(MailchimpBatchResult, plain);
  }
}
