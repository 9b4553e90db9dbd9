/**
 * known-missing: the ONE list of API calls a screen needs that the server does not serve yet.
 * Every other call goes through the typed client (typed-client.ts) and must be in the generated
 * OpenAPI paths. A screen whose call is listed here makes no request: it tells the user the feature
 * is not available yet (FEATURE_NOT_AVAILABLE).
 *
 * `npm test` prints this list and fails when an entry is now served (scripts/known-missing.mjs):
 * the screen must then move to the typed client and the entry leave the list. The list must be
 * empty once the products (8), orders (9), students (10) and sync (11) issues are resolved.
 *
 * Kept free of imports so the check script can read it as plain data.
 */
export interface KnownMissingCall {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  /** When set, the path exists but its 200 answer lacks this field. */
  field?: string;
  /** The issue that builds it. */
  issue: 8 | 9 | 10 | 11;
  /** The screen that needs it. */
  screen: string;
}

export const KNOWN_MISSING = [] as const satisfies readonly KnownMissingCall[];

/** What a screen says in place of a feature whose API is on the list. */
export const FEATURE_NOT_AVAILABLE = {} as const;
