import { $api } from '@studio/ui';

/*
 * The course form's waiver picker (spec 001 §7): only this remote reads the waivers list. Waivers
 * are added on the shell's New waiver page, in another tab, so the picker reads the list again on
 * focus and when that page announces a new one (see WaiverPicker).
 */
const LIST = '/api/admin/waiver';

/** Spec 001 §9: waiver list limit 1000. */
export const WAIVER_LIST_LIMIT = 1000;

export const waiverKeys = { lists: () => ['get', LIST] as const };
export const waiverQueries = {
  list: () => $api.queryOptions('get', LIST, { params: { query: { limit: WAIVER_LIST_LIMIT, page: 1 } } }),
};
