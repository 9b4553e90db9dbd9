import { SYNC_MESSAGES as M, syncConfigPayloadSchema } from './sync.schema';

const issues = (body: unknown) => {
  const r = syncConfigPayloadSchema.safeParse(body);
  return r.success
    ? []
    : r.error.issues.map((i) => ({ path: i.path.join('.'), code: i.code, message: i.message }));
};

describe('syncConfigPayloadSchema (PUT /api/admin/sync/providers/config_schema)', () => {
  it("takes each provider's own fields", () => {
    expect(
      issues({
        provider_name: 'eventbrite',
        organization_id: '1234567',
        sync_all_courses: true,
        sync_all_enrollments: true,
      }),
    ).toEqual([]);
    expect(issues({ provider_name: 'mailchimp', list_id: 'a1b2c3d4e5', sync_all_customers: true })).toEqual(
      [],
    );
    expect(issues({ provider_name: 'klaviyo', list_id: 'XyZ123', sync_all_customers: false })).toEqual([]);
    expect(issues({ provider_name: 'zoom', meeting_summary: true })).toEqual([]);
    expect(issues({ provider_name: 'mailchimp', list_id: null })).toEqual([]);
  });

  it('refuses sync_all_enrollments false with its message', () => {
    expect(issues({ provider_name: 'eventbrite', sync_all_enrollments: false })).toEqual([
      { path: 'sync_all_enrollments', code: 'invalid_value', message: M.enrollmentsAlwaysSynced },
    ]);
  });

  it("refuses another provider's field by name", () => {
    expect(issues({ provider_name: 'zoom', list_id: 'abc' })).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys' }),
    ]);
    expect(issues({ provider_name: 'mailchimp', meeting_summary: true })).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys' }),
    ]);
  });

  it('refuses an unknown or missing provider, and a bad list id', () => {
    expect(issues({ provider_name: 'hubspot' })).toEqual([
      expect.objectContaining({ path: 'provider_name', message: M.providerRequired }),
    ]);
    expect(issues({})).toEqual([
      expect.objectContaining({ path: 'provider_name', message: M.providerRequired }),
    ]);
    expect(issues({ provider_name: 'klaviyo', list_id: 'a'.repeat(65) })).toEqual([
      expect.objectContaining({ path: 'list_id', message: M.remoteIdInvalid }),
    ]);
    expect(issues({ provider_name: 'klaviyo', list_id: 'a b' })).toEqual([
      expect.objectContaining({ path: 'list_id', message: M.remoteIdInvalid }),
    ]);
    expect(issues({ provider_name: 'zoom', meeting_summary: 'yes' })).toEqual([
      expect.objectContaining({ path: 'meeting_summary', message: M.toggleInvalid }),
    ]);
  });
});
