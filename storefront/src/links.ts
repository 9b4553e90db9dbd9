/*
 * The store's links inside this app: the spec's shapes (storeLinks, zod-free in the contracts'
 * store-rules, so the pages do not load the API's schemas) under this app's /s/{slug}.
 */

import { storeLinks } from '@studio/contracts/src/storefront/store-rules';

/** The store's address in this app. */
export const storeBase = (slug: string) => `/s/${encodeURIComponent(slug.toLowerCase())}`;

export const appLinks = storeLinks;

/** The slug of the store whose pages are at `base` (/s/{slug}): its Storefront API is /api/public/{slug}. */
export const storeSlug = (base: string) => decodeURIComponent(base.replace(/^\/s\//, ''));
