import { useEffect } from 'react';
import { reportToOverlay } from './framed';
import { pageByName } from './routes';
import type { HydrationData } from './types';

/** The page named in the hydration data, the same on the server and in the browser. */
export function App({ page, data, base }: HydrationData) {
  const { Page } = pageByName(page);
  useEffect(() => {
    // Browser tests (and styles) can tell the page is live.
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  // In the checkout overlay on a studio's site: the page's height, Escape, a completed purchase.
  useEffect(() => reportToOverlay(page, data), [page, data]);
  return <Page data={data} base={base} />;
}
