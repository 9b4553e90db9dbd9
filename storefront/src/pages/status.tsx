import type { PageProps } from '../types';
import { Layout } from './layout';

export interface NotFoundData {
  /** What is missing, as the API says it: "Store not found", "Course not found". */
  message: string;
  /** Whether the store exists (then the page links back to it). */
  storeFound: boolean;
}

/** A store or course that is not there (HTTP 404). */
export function NotFoundPage({ data, base }: PageProps<NotFoundData>) {
  return (
    <Layout base={data.storeFound ? base : null}>
      <h1>Page not found</h1>
      <p>{data.message}. The link may be old, or the studio may have taken the page down.</p>
      {data.storeFound ? (
        <p>
          <a href={base}>See all courses</a>
        </p>
      ) : null}
    </Layout>
  );
}

/** Our own fault (HTTP 500): nothing about the cause. */
export function ErrorPage({ base }: PageProps<null>) {
  return (
    <Layout base={null}>
      <h1>Something went wrong</h1>
      <p>The store could not be shown just now. Please try again in a moment.</p>
      <p>
        <a href={base}>Try again</a>
      </p>
    </Layout>
  );
}
