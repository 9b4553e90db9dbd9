import { OVERLAY_MESSAGES } from './overlay/protocol';

/**
 * A store page opened in the checkout overlay (overlay/checkout-overlay.ts) on a studio's own site:
 * it tells the page around it its height, Escape, and a completed purchase. Nothing happens when
 * the page is not framed.
 */
export const isFramed = () => {
  try {
    return window.parent !== window;
  } catch {
    return true;
  }
};

/**
 * Sends the page's height (now and whenever it changes), Escape, and, on a confirmation that shows
 * a paid booking, the order's number. Any origin may frame the store, so messages go to '*': they
 * say nothing private (a height, an order number the framing page's visitor is being shown), and
 * the overlay accepts them only from its iframe's origin. Returns the way to stop.
 */
export function reportToOverlay(page: string, data: unknown): () => void {
  if (!isFramed()) return () => undefined;
  const post = (message: Record<string, unknown>) => window.parent.postMessage(message, '*');
  let last = -1;
  const sendHeight = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    post({ type: OVERLAY_MESSAGES.height, height });
  };
  sendHeight();
  const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(sendHeight) : null;
  observer?.observe(document.documentElement);
  // Pictures and fonts that arrive later change the height too.
  window.addEventListener('load', sendHeight);
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') post({ type: OVERLAY_MESSAGES.close });
  };
  document.addEventListener('keydown', onKey);
  const order = data as { status?: string; order_number?: number } | null;
  if (page === 'checkout-complete' && order?.status === 'paid')
    post({ type: OVERLAY_MESSAGES.purchase, order_number: order.order_number });
  return () => {
    observer?.disconnect();
    window.removeEventListener('load', sendHeight);
    document.removeEventListener('keydown', onKey);
  };
}

/**
 * Goes to the next page of a checkout. Framed, a page on another origin than the store (Stripe
 * Checkout, which refuses to be framed) opens in the top window instead of the overlay's iframe;
 * the store's own pages and the demo payment page (same origin, frameable) stay in the overlay.
 */
export function navigate(url: string): void {
  const target = new URL(url, window.location.href);
  if (isFramed() && target.origin !== window.location.origin) {
    try {
      if (window.open(target.href, '_top')) return;
    } catch {
      // Refused (no user activation left): go in the frame, the provider's page says why.
    }
  }
  window.location.assign(target.href);
}
