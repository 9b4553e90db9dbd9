import { OVERLAY_MESSAGES, PURCHASE_EVENT } from './protocol';

/**
 * The checkout overlay (issue 21), the script a studio pastes into its own site
 * (`<script src="{PUBLIC_APP_URL}/checkout-overlay.js" defer></script>`). A click on a store link
 * that carries openModal=true (`…/activity/{id}?openModal=true`,
 * `…/checkout?event_id=…&openModal=true`, `…/checkout?product_id=…&openModal=true`, on any store
 * address: PUBLIC_APP_URL/s/{slug} or the studio's own site) opens that page in a modal iframe
 * instead of leaving the site:
 * - role=dialog, aria-modal, labelled by the link's text; the rest of the page is inert;
 * - focus moves to the close button and stays inside (Tab and Shift+Tab wrap through the close
 *   button and the framed page); Escape (on this page, or inside the store page, which says so by
 *   a message) and the close button close it, and focus returns to the link;
 * - the page behind does not scroll, and keeps its place (no scrollbar shift, no jump) on close;
 * - the iframe is as tall as the store page says it is (a message on render and on change), the
 *   overlay scrolling when that is taller than the window;
 * - when the store's confirmation shows a paid booking, `studio:purchase-complete` is dispatched on
 *   document with `{ order_number }` as detail.
 * Messages count only from the iframe's window at the link's origin. A click with a modifier key
 * (new tab) or on a link of another shape is left to the browser. No dependencies.
 */

const STYLE_ID = 'studio-overlay-style';
const CSS =
  '.studio-overlay{position:fixed;inset:0;z-index:2147483000;background:rgba(15,20,30,.6);overflow-y:auto;overscroll-behavior:contain;padding:2.5rem .5rem}' +
  '.studio-overlay [role=dialog]{position:relative;max-width:46rem;margin:0 auto;background:#fff;border-radius:8px;box-shadow:0 8px 32px rgba(0,0,0,.3)}' +
  '.studio-overlay iframe{display:block;width:100%;border:0;border-radius:8px;min-height:12rem}' +
  '.studio-overlay button{position:absolute;top:-2.25rem;right:0;min-width:2rem;height:2rem;border:0;border-radius:50%;background:#fff;color:#1c2430;font:24px/1 system-ui,sans-serif;cursor:pointer}' +
  '.studio-overlay button:focus-visible{outline:3px solid #1a73e8;outline-offset:2px}';

/** The address to open in the overlay, or null when the link is not an overlay store link. */
export function overlayTarget(href: string, base: string): URL | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(url.protocol) || url.searchParams.get('openModal') !== 'true') return null;
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/activity\/[^/]+$/.test(path)) return url;
  if (/\/checkout$/.test(path) && (url.searchParams.has('event_id') || url.searchParams.has('product_id')))
    return url;
  return null;
}

interface Open {
  root: HTMLElement;
  frame: HTMLIFrameElement;
  origin: string;
  link: HTMLElement;
  /** The elements made inert, the styles and scroll to restore. */
  restore: () => void;
}

/** Installs the overlay on a document: one click listener; returns the way to remove it. */
export function installOverlay(doc: Document): () => void {
  const win = doc.defaultView as Window;
  let open: Open | null = null;

  const close = () => {
    if (!open) return;
    const { root, link, restore } = open;
    open = null;
    root.remove();
    restore();
    link.focus({ preventScroll: true });
  };

  const onMessage = (event: MessageEvent) => {
    if (!open || event.source !== open.frame.contentWindow || event.origin !== open.origin) return;
    const data = event.data as { type?: unknown; height?: unknown; order_number?: unknown } | null;
    if (!data || typeof data !== 'object') return;
    if (data.type === OVERLAY_MESSAGES.height && typeof data.height === 'number' && data.height > 0)
      open.frame.style.height = `${Math.min(Math.ceil(data.height), 100000)}px`;
    else if (data.type === OVERLAY_MESSAGES.close) close();
    else if (data.type === OVERLAY_MESSAGES.purchase)
      doc.dispatchEvent(new CustomEvent(PURCHASE_EVENT, { detail: { order_number: data.order_number } }));
  };

  const onKey = (event: KeyboardEvent) => {
    if (open && event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (open && event.key === 'Tab') {
      // Tab from the close button (or from anywhere focus fell out to, such as the body while the
      // framed page loads) goes into the framed page, never to the page behind.
      const active = doc.activeElement;
      const button = open.root.querySelector('button');
      if (active === button || !open.root.contains(active)) {
        event.preventDefault();
        if (event.shiftKey && active !== button) button?.focus({ preventScroll: true });
        else open.frame.focus({ preventScroll: true });
      }
    }
  };

  const show = (link: HTMLElement, url: URL) => {
    if (!doc.getElementById(STYLE_ID)) {
      const style = doc.createElement('style');
      style.id = STYLE_ID;
      style.textContent = CSS;
      doc.head.appendChild(style);
    }
    const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string>) => {
      const node = doc.createElement(tag);
      for (const name in attrs) node.setAttribute(name, attrs[name]);
      return node;
    };
    const label = (link.getAttribute('aria-label') || link.textContent || '').trim() || 'Checkout';
    const root = el('div', { class: 'studio-overlay' });
    const dialog = el('div', { role: 'dialog', 'aria-modal': 'true', 'aria-label': label });
    const button = el('button', { type: 'button', 'aria-label': 'Close' });
    button.textContent = '×';
    const frame = el('iframe', { src: url.href, title: label, allow: 'payment' });
    frame.style.height = `${Math.round(Math.min(win.innerHeight * 0.8, 640))}px`;
    // Focus wraps: past the framed page to the close button, before the button into the page.
    const edge = (to: () => void) => {
      const node = el('span', { tabindex: '0' });
      node.addEventListener('focus', to);
      return node;
    };
    dialog.append(button, frame);
    root.append(
      edge(() => frame.focus()),
      dialog,
      edge(() => button.focus()),
    );
    button.addEventListener('click', close);
    // A click on the backdrop (not the dialog) closes too.
    root.addEventListener('click', (event) => {
      if (event.target === root) close();
    });

    const html = doc.documentElement;
    const { scrollX, scrollY } = win;
    const saved = [html.style.overflow, html.style.paddingRight];
    const gutter = win.innerWidth - html.clientWidth;
    const inert = [...doc.body.children].filter((child) => !child.hasAttribute('inert'));
    html.style.overflow = 'hidden';
    if (gutter > 0) html.style.paddingRight = `${gutter}px`;
    inert.forEach((child) => child.setAttribute('inert', ''));
    doc.body.appendChild(root);
    open = {
      root,
      frame,
      origin: url.origin,
      link,
      restore: () => {
        inert.forEach((child) => child.removeAttribute('inert'));
        [html.style.overflow, html.style.paddingRight] = saved;
        if (win.scrollX !== scrollX || win.scrollY !== scrollY) win.scrollTo(scrollX, scrollY);
      },
    };
    button.focus({ preventScroll: true });
  };

  const onClick = (event: MouseEvent) => {
    if (open || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
    const url = link && overlayTarget(link.getAttribute('href') ?? '', doc.baseURI);
    if (!link || !url) return;
    event.preventDefault();
    show(link, url);
  };

  doc.addEventListener('click', onClick);
  doc.addEventListener('keydown', onKey, true);
  win.addEventListener('message', onMessage);
  return () => {
    close();
    doc.removeEventListener('click', onClick);
    doc.removeEventListener('keydown', onKey, true);
    win.removeEventListener('message', onMessage);
  };
}
