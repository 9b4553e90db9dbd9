import type { PublicCourse, PublicStore } from '@studio/contracts';
import { courseEvents, absoluteUrl } from './json-ld';

/** What a page puts in its <head>, besides the assets. */
export interface Head {
  title: string;
  description: string;
  og?: { type: string; title: string; description: string; url: string; image?: string; siteName?: string };
  jsonLd?: unknown;
  /** Pages that are not content (404, error) ask search engines not to index them. */
  noindex?: boolean;
}

export interface HeadContext {
  /** The page's absolute address. */
  pageUrl: string;
  origin: string;
  base: string;
}

const DESCRIPTION_CHARS = 200;

/** One line of at most 200 characters, cut at a word. */
export function shortText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= DESCRIPTION_CHARS) return flat;
  const cut = flat.slice(0, DESCRIPTION_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 0 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function storeHead(store: PublicStore, context: HeadContext): Head {
  const description = shortText(
    store.courses.length || store.products.length
      ? `Courses and products from ${store.name}: ${[...store.courses, ...store.products]
          .map((item) => item.name)
          .join(', ')}.`
      : `The online store of ${store.name}.`,
  );
  const image = store.courses.find((course) => course.image_url)?.image_url;
  return {
    title: store.name,
    description,
    og: {
      type: 'website',
      title: store.name,
      description,
      url: context.pageUrl,
      siteName: store.name,
      ...(image ? { image: absoluteUrl(image, context.origin) } : {}),
    },
  };
}

export function courseHead(course: PublicCourse, context: HeadContext): Head {
  const description = shortText(course.summary || course.description || course.name);
  const image = course.images[0] ?? course.image_url;
  return {
    title: course.name,
    description,
    og: {
      type: 'website',
      title: course.name,
      description,
      url: context.pageUrl,
      ...(image ? { image: absoluteUrl(image, context.origin) } : {}),
    },
    jsonLd: courseEvents(course, context),
  };
}
