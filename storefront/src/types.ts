import type { PublicCourse, PublicStore } from '@studio/contracts';

/**
 * What the pages read, given by the host: the API process passes StorefrontService's reads (no
 * HTTP hop). A store or course that is not there rejects with an error the host knows as a 404.
 */
export interface StoreApi {
  home(slug: string): Promise<PublicStore>;
  course(slug: string, activityId: string): Promise<PublicCourse>;
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
