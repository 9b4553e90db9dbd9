import { $api } from '../api/query-client';

/*
 * Shared: locations and instructors are kept on the shell's Settings pages and picked in the courses
 * remote's forms (spec 001 §7). The shell's saves refresh `lists()`, which the pickers read.
 */
const LOCATIONS = '/api/admin/location';
const INSTRUCTORS = '/api/admin/instructor';

export const locationQueries = { list: () => $api.queryOptions('get', LOCATIONS) };
export const instructorQueries = { list: () => $api.queryOptions('get', INSTRUCTORS) };

export const locationKeys = { lists: () => ['get', LOCATIONS] as const };
export const instructorKeys = { lists: () => ['get', INSTRUCTORS] as const };
