import { installOverlay } from './checkout-overlay';

// Built alone to dist/overlay/checkout-overlay.js (webpack.config.js); installed once per page
// even when the snippet is pasted twice.
const flagged = window as unknown as { studioCheckoutOverlay?: boolean };
if (!flagged.studioCheckoutOverlay) {
  flagged.studioCheckoutOverlay = true;
  installOverlay(document);
}
