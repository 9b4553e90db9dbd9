import type { QueryClient } from '@tanstack/react-query';
import { $api } from '../api/query-client';

/* Locations, instructors and waivers: the pickers' lists (spec 001 §7) and their key factories. */
const LOCATIONS = '/api/admin/location';
const INSTRUCTORS = '/api/admin/instructor';
const WAIVERS = '/api/admin/waiver';

/** Spec 001 §9: waiver list limit 1000. */
export const WAIVER_LIST_LIMIT = 1000;

export const locationQueries = { list: () => $api.queryOptions('get', LOCATIONS) };
export const instructorQueries = { list: () => $api.queryOptions('get', INSTRUCTORS) };
export const waiverQueries = {
  list: () => $api.queryOptions('get', WAIVERS, { params: { query: { limit: WAIVER_LIST_LIMIT, page: 1 } } }),
};

export const locationKeys = { lists: () => ['get', LOCATIONS] as const };
export const instructorKeys = { lists: () => ['get', INSTRUCTORS] as const };
export const waiverKeys = { lists: () => ['get', WAIVERS] as const };

export const invalidateLocations = (client: QueryClient) =>
  client.invalidateQueries({ queryKey: locationKeys.lists() });
export const invalidateInstructors = (client: QueryClient) =>
  client.invalidateQueries({ queryKey: instructorKeys.lists() });
export const invalidateWaivers = (client: QueryClient) =>
  client.invalidateQueries({ queryKey: waiverKeys.lists() });
