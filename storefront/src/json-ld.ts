import type { PublicCourse } from '@studio/contracts';
import { appLinks } from './links';

/** A URL made absolute against the page's origin (media are served as /api/media/…). */
export function absoluteUrl(url: string, origin: string): string {
  try {
    return new URL(url, origin).toString();
  } catch {
    return url;
  }
}

const AVAILABILITY = {
  inStock: 'https://schema.org/InStock',
  soldOut: 'https://schema.org/SoldOut',
} as const;

export interface CourseLdContext {
  /** The page's absolute address. */
  pageUrl: string;
  /** Origin of this app, for absolute image and checkout links. */
  origin: string;
  /** The store's address in this app: /s/{slug}. */
  base: string;
}

/**
 * schema.org Events for a course page (issue 21): one per upcoming session, with its place (or a
 * virtual location), times, and an Offer saying its price and whether seats are left, so search
 * engines and link previews read what the page shows.
 */
export function courseEvents(course: PublicCourse, context: CourseLdContext): Record<string, unknown>[] {
  const images = course.images.map((image) => absoluteUrl(image, context.origin));
  return course.sessions.map((session) => {
    const online = session.online;
    const location = online
      ? { '@type': 'VirtualLocation', url: context.pageUrl }
      : {
          '@type': 'Place',
          name: session.location_name,
          ...(course.location.address && session.location_name === course.location.name
            ? { address: course.location.address }
            : {}),
        };
    return {
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: course.name,
      description: course.summary,
      startDate: session.starts_at,
      endDate: session.ends_at,
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: online
        ? 'https://schema.org/OnlineEventAttendanceMode'
        : 'https://schema.org/OfflineEventAttendanceMode',
      location,
      ...(images.length ? { image: images } : {}),
      ...(course.instructor.name ? { performer: { '@type': 'Person', name: course.instructor.name } } : {}),
      offers: {
        '@type': 'Offer',
        price: (session.price_cents / 100).toFixed(2),
        priceCurrency: 'USD',
        availability: session.sold_out ? AVAILABILITY.soldOut : AVAILABILITY.inStock,
        url: absoluteUrl(appLinks.checkoutSession(context.base, session.event_id), context.origin),
      },
    };
  });
}

/**
 * JSON for a <script> element: nothing in it can close the element or open a comment (`<` as
 * \u003c, also `>` and `&`), and the line separators JavaScript once refused are escaped.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
