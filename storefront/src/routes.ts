import { h, type ComponentType } from 'preact';
import { courseHead, storeHead, type Head, type HeadContext } from './head';
import { appointmentCheckoutData, CheckoutPage, type CheckoutData } from './pages/checkout';
import { ProductCheckoutPage, type ProductCheckoutData } from './pages/product-checkout';
import { CheckoutCompletePage } from './pages/checkout-complete';
import { BookingPage } from './pages/booking';
import { CoursePage } from './pages/course';
import { ErrorPage, NotFoundPage, type NotFoundData } from './pages/status';
import { StoreHomePage } from './pages/store-home';
import { WaitlistPage, type WaitlistData } from './pages/waitlist';
import type { PublicBooking, PublicOrder } from '@studio/contracts';
import type { PageProps, StoreApi } from './types';

/** A query value as one string ('' when absent or repeated). */
const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

/**
 * The store's pages. A page is one row: its path (Fastify's syntax, served by the API process and
 * by the standalone server, standalone/match-route.ts),
 * what it reads from the store, its component, and its <head>. The server renders a row's page
 * with the data `load` returned, and the browser hydrates the same component from that data.
 */
export interface Route<D> {
  name: string;
  path: string;
  /** `params` from the path, `query` from the query string (e.g. ?event_id= on a checkout page). */
  load(
    api: StoreApi,
    params: Record<string, string>,
    query: Record<string, string | string[] | undefined>,
  ): Promise<D>;
  Page: ComponentType<PageProps<D>>;
  head(data: D, context: HeadContext): Head;
}

const route = <D>(definition: Route<D>) => definition as unknown as Route<unknown>;

export const routes: Route<unknown>[] = [
  route({
    name: 'home',
    path: '/s/:slug',
    load: (api, { slug }) => api.home(slug),
    Page: StoreHomePage,
    head: storeHead,
  }),
  route({
    name: 'course',
    path: '/s/:slug/activity/:id',
    load: (api, { slug, id }) => api.course(slug, id),
    Page: CoursePage,
    head: courseHead,
  }),
  route<CheckoutData | ProductCheckoutData>({
    name: 'checkout',
    path: '/s/:slug/checkout',
    // A session's (?event_id=), an appointment's (?activity_id=&starts_at=) or a product's (?product_id=) checkout.
    load: async (api, { slug }, query) =>
      query.product_id !== undefined
        ? api.checkoutProduct(slug, one(query.product_id))
        : query.activity_id !== undefined
          ? appointmentCheckoutData(
              ...(await Promise.all([api.course(slug, one(query.activity_id)), api.home(slug)])),
              one(query.starts_at),
            )
          : { ...(await api.checkoutSession(slug, one(query.event_id))), claim_token: one(query.claim) || null },
    Page: ({ data, base }) =>
      'product' in data ? h(ProductCheckoutPage, { data, base }) : h(CheckoutPage, { data, base }),
    head: (data) =>
      'product' in data
        ? {
            title: data.product.kind === 'leadMagnet' ? `Get ${data.product.name}` : `Buy ${data.product.name}`,
            description: `${data.product.name} at ${data.store_name}.`,
            noindex: true,
          }
        : { title: `Book ${data.course.name}`, description: `Book ${data.course.name}.`, noindex: true },
  }),
  route<WaitlistData>({
    name: 'waitlist',
    path: '/s/:slug/waitlist',
    // A sold-out session's waitlist (issue 23): ?event_id=.
    load: (api, { slug }, query) => api.checkoutSession(slug, one(query.event_id)),
    Page: WaitlistPage,
    head: (data) => ({
      title: `Waitlist: ${data.course.name}`,
      description: `Join the waitlist of ${data.course.name}.`,
      noindex: true,
    }),
  }),
  route<PublicOrder>({
    name: 'checkout-complete',
    path: '/s/:slug/checkout/complete',
    load: (api, { slug }, query) => api.order(slug, one(query.order), one(query.token)),
    Page: CheckoutCompletePage,
    head: (data) => ({
      title: `Order #${data.order_number}`,
      description: `Your order at ${data.store_name}.`,
      noindex: true,
    }),
  }),
  route<PublicBooking>({
    name: 'booking',
    path: '/s/:slug/booking/:token',
    load: (api, { slug, token }) => api.booking(slug, token),
    Page: BookingPage,
    head: (data) => ({
      title: `Your booking: ${data.course_name}`,
      description: `Your booking at ${data.store_name}.`,
      noindex: true,
    }),
  }),
];

/** Pages no route leads to: what is not there (404), and our own fault (500). */
export const statusPages = {
  'not-found': {
    Page: NotFoundPage as ComponentType<PageProps<unknown>>,
    head: (data: NotFoundData): Head => ({
      title: 'Page not found',
      description: data.message,
      noindex: true,
    }),
  },
  error: {
    Page: ErrorPage as ComponentType<PageProps<unknown>>,
    head: (): Head => ({
      title: 'Something went wrong',
      description: 'The store could not be shown.',
      noindex: true,
    }),
  },
};

export type StatusPage = keyof typeof statusPages;

/** The component and head of a page, by name. */
export function pageByName(name: string): Pick<Route<unknown>, 'Page' | 'head'> {
  const found = routes.find((r) => r.name === name) ?? statusPages[name as StatusPage];
  if (!found) throw new Error(`No store page is called ${name}`);
  return found as Pick<Route<unknown>, 'Page' | 'head'>;
}
