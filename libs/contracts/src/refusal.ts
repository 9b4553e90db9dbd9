/*
 * A refused business rule (issue 33): what a pure rule of this library answers when it says no,
 * `{ code, message, field? }`, and the kinds of refusal. The API raises it as its one domain error
 * (backend/src/common/domain-error.ts), whose kind decides the HTTP status; the admin and the store
 * show its message. A rule returns a refusal or null; it never throws.
 */

/** What kind of no: the API maps each to one status (invalid 400, forbidden 403, not_found 404, conflict 409, upstream 502). */
export const REFUSAL_KINDS = ['invalid', 'forbidden', 'not_found', 'conflict', 'upstream'] as const;
export type RefusalKind = (typeof REFUSAL_KINDS)[number];

/** A rule's refusal: a stable `code` (a string-literal union per rule), the spec's message, the form field it names, if any. */
export interface Refusal<C extends string = string> {
  code: C;
  message: string;
  field?: string;
}
