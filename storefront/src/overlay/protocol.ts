/**
 * What a store page in the checkout overlay tells the page that framed it (window.postMessage),
 * and the DOM event the overlay dispatches on that page when a purchase completes. Shared by the
 * overlay script (checkout-overlay.ts) and the store's pages (../framed.ts).
 */
export const OVERLAY_MESSAGES = {
  /** { type, height }: the store page's document height in CSS pixels, on render and on change. */
  height: 'studio:height',
  /** { type }: Escape was pressed inside the store page. */
  close: 'studio:close',
  /** { type, order_number }: the confirmation page shows a paid booking. */
  purchase: 'studio:purchase-complete',
} as const;

/** The CustomEvent dispatched on the studio page's document, with `{ order_number }` as detail. */
export const PURCHASE_EVENT = 'studio:purchase-complete';
