import 'reflect-metadata';
import {
  KlaviyoAccount,
  KlaviyoBulkImportJob,
  KlaviyoProfile,
  nextPageCursor,
} from './klaviyo/klaviyo.resources';
import { MailchimpAccount, MailchimpBatchResult, MailchimpList } from './mailchimp/mailchimp.resources';

describe('mailing-list provider resources (class-transformer)', () => {
  it("reads Mailchimp's OAuth metadata, lists and batch answers into named fields and dates", () => {
    expect(
      MailchimpAccount.from({
        accountname: 'Studio',
        dc: 'us6',
        api_endpoint: 'https://us6.api.mailchimp.com',
        role: 'owner',
      }),
    ).toEqual(
      Object.assign(new MailchimpAccount(), {
        accountName: 'Studio',
        dc: 'us6',
        apiEndpoint: 'https://us6.api.mailchimp.com',
      }),
    );
    const [list] = MailchimpList.fromCollection({
      lists: [
        { id: 'a1', name: 'News', date_created: '2024-03-01T10:00:00+00:00', stats: { member_count: 4 } },
      ],
    });
    expect(list.createdAt).toEqual(new Date('2024-03-01T10:00:00Z'));
    expect(list.stats.memberCount).toBe(4);
    const batch = MailchimpBatchResult.from({
      new_members: [
        {
          id: 'h1',
          email_address: 'a@example.com',
          status: 'subscribed',
          last_changed: '2024-03-02T00:00:00+00:00',
        },
      ],
      errors: [{ email_address: 'b@x', error: 'looks fake', error_code: 'ERROR_GENERIC' }],
      total_created: 1,
    });
    expect(batch.newMembers[0]).toMatchObject({
      id: 'h1',
      email: 'a@example.com',
      lastChanged: new Date('2024-03-02T00:00:00Z'),
    });
    expect(batch.updatedMembers).toEqual([]); // absent in the answer: still an array
    expect(batch.errors[0]).toMatchObject({ email: 'b@x', error: 'looks fake', code: 'ERROR_GENERIC' });
  });

  it("reads Klaviyo's JSON:API resources (id + attributes) and its cursor links", () => {
    const [account] = KlaviyoAccount.fromCollection({
      data: [
        {
          type: 'account',
          id: 'AbC',
          attributes: { contact_information: { organization_name: 'Studio' }, timezone: 'UTC' },
        },
      ],
    });
    expect(account.contact.organizationName).toBe('Studio');
    const profile = KlaviyoProfile.from({
      data: {
        type: 'profile',
        id: '01P',
        attributes: { email: 'a@example.com', first_name: 'Ada', created: '2024-01-01T00:00:00+00:00' },
      },
    });
    expect(profile).toMatchObject({
      id: '01P',
      email: 'a@example.com',
      firstName: 'Ada',
      created: new Date('2024-01-01T00:00:00Z'),
    });
    const job = KlaviyoBulkImportJob.from({
      data: { id: 'J', attributes: { status: 'processing', total_count: 3 } },
    });
    expect(job).toMatchObject({ id: 'J', totalCount: 3, done: false });
    expect(
      nextPageCursor({ links: { next: 'https://a.klaviyo.com/api/lists/?page%5Bcursor%5D=bmV4dA' } }),
    ).toBe('bmV4dA');
    expect(nextPageCursor({ links: { next: null } })).toBeNull();
  });
});
