import type { PublicBooking, PublicCourse, PublicOrder, PublicProduct, PublicSession, PublicStore } from '@studio/contracts';

/**
 * What the pages read, given by the host: the API process passes StorefrontService's reads (no
 * HTTP hop), the standalone server the Storefront API's over HTTP (standalone/http-store-api.ts). A store or course that is not there rejects with an error the host knows as a 404.
 */
export interface StoreApi {
  home(slug: string): Promise<PublicStore>;
  course(slug: string, activityId: string): Promise<PublicCourse>;
  /** A bookable session with its course; a session that cannot be booked rejects as a 404. */
  checkoutSession(
    slug: string,
    eventId: string,
  ): Promise<{ store_name: string; course: PublicCourse; session: PublicSession }>;
  /** A published product (its checkout page); anything else rejects as a 404. */
  checkoutProduct(slug: string, productId: string): Promise<{ store_name: string; product: PublicProduct }>;
  /** A store order for the holder of its token; anything else rejects as a 404. */
  order(slug: string, orderId: string, token: string): Promise<PublicOrder>;
  /** A booking for the holder of its manage link (issue 23); a wrong token rejects as a 404. */
  booking(slug: string, token: string): Promise<PublicBooking>;
}

/** What every page is given, on the server and again in the browser (the hydration data). */
export interface PageProps<D> {
  data: D;
  /** The store's address in this app: /s/{slug}. */
  base: string;
}

/** The JSON the server writes into the page for hydration. */
export interface HydrationData {
  page: string;
  data: unknown;
  base: string;
}
