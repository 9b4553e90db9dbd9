import { $api } from '../api/query-client';

/* Organizations a super admin may switch to (spec 001 §6). */
const LIST = '/api/super-admin/organization';

export const organizationQueries = { list: () => $api.queryOptions('get', LIST) };
export const organizationKeys = { lists: () => ['get', LIST] as const };
