/*
 * The store's links inside this app, in the spec's shapes (storeLinks in @studio/contracts, which
 * a test keeps equal to these). They are written here because that module also defines the API's
 * zod schemas, and importing it would bring zod into the page's JavaScript.
 */

/** The store's address in this app. */
export const storeBase = (slug: string) => `/s/${encodeURIComponent(slug.toLowerCase())}`;

export const appLinks = {
  course: (store: string, activityId: string) => `${store}/activity/${activityId}`,
  checkoutSession: (store: string, eventId: string) => `${store}/checkout?event_id=${eventId}`,
  checkoutProduct: (store: string, productId: string) => `${store}/checkout?product_id=${productId}`,
};

/** The Storefront API of the store whose pages are at `base`: /s/{slug} → /api/public/{slug}. */
export const storeApi = (base: string) => base.replace(/^\/s\//, '/api/public/');
