import { useEffect } from 'react';
import { pageByName } from './routes';
import type { HydrationData } from './types';

/** The page named in the hydration data, the same on the server and in the browser. */
export function App({ page, data, base }: HydrationData) {
  const { Page } = pageByName(page);
  useEffect(() => {
    // Browser tests (and styles) can tell the page is live.
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return <Page data={data} base={base} />;
}
