import { installOverlay, overlayTarget } from './checkout-overlay';
import { OVERLAY_MESSAGES, PURCHASE_EVENT } from './protocol';

const STORE = 'https://app.example.test/s/demo-studio';
const COURSE = `${STORE}/activity/c1?openModal=true`;

describe('overlayTarget: the store links the overlay opens', () => {
  it.each([
    COURSE,
    `${STORE}/checkout?event_id=e1&openModal=true`,
    `${STORE}/checkout?product_id=p1&openModal=true`,
    // The studio's own site as the store's address.
    'https://shop.studio.test/activity/c1?openModal=true',
  ])('opens %s', (href) => {
    expect(overlayTarget(href, 'https://studio.test/')?.href).toBe(href);
  });

  it.each([
    `${STORE}/activity/c1`,
    `${STORE}/activity/c1?openModal=false`,
    `${STORE}/checkout?openModal=true`,
    `${STORE}/about?openModal=true`,
    'javascript:alert(1)//?openModal=true',
    'mailto:a@b.test?openModal=true',
  ])('leaves %s to the browser', (href) => {
    expect(overlayTarget(href, 'https://studio.test/')).toBeNull();
  });
});

describe('the checkout overlay on a studio page', () => {
  let uninstall: () => void;
  let link: HTMLAnchorElement;
  let plain: HTMLAnchorElement;

  beforeEach(() => {
    document.body.innerHTML = `
      <main><p>Our classes</p>
        <a id="overlay" href="${COURSE}">Book Wheel throwing</a>
        <a id="plain" href="${STORE}/activity/c1">Read more</a>
      </main>`;
    link = document.getElementById('overlay') as HTMLAnchorElement;
    plain = document.getElementById('plain') as HTMLAnchorElement;
    uninstall = installOverlay(document);
  });

  afterEach(() => uninstall());

  const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]');
  const frame = () => document.querySelector('iframe') as HTMLIFrameElement;
  const click = (target: Element, init: MouseEventInit = {}) => {
    const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
    target.dispatchEvent(event);
    return event;
  };
  const fromFrame = (data: unknown, origin = 'https://app.example.test', source?: Window | null) =>
    window.dispatchEvent(
      new MessageEvent('message', {
        data,
        origin,
        source: source === undefined ? frame().contentWindow : source,
      }),
    );

  it('opens the link in a labelled modal dialog, focus on its close button, the page behind inert and still', () => {
    const event = click(link);
    expect(event.defaultPrevented).toBe(true);
    const open = dialog();
    expect(open).not.toBeNull();
    expect(open).toHaveAttribute('aria-modal', 'true');
    expect(open).toHaveAttribute('aria-label', 'Book Wheel throwing');
    expect(frame().getAttribute('src')).toBe(COURSE);
    expect(frame()).toHaveAttribute('title', 'Book Wheel throwing');
    expect(document.activeElement).toBe(document.querySelector('button[aria-label="Close"]'));
    expect(document.querySelector('main')).toHaveAttribute('inert');
    expect(document.documentElement.style.overflow).toBe('hidden');
  });

  it('leaves other links, and clicks that open a new tab, to the browser', () => {
    expect(click(plain).defaultPrevented).toBe(false);
    expect(click(link, { ctrlKey: true }).defaultPrevented).toBe(false);
    expect(click(link, { button: 1 }).defaultPrevented).toBe(false);
    expect(dialog()).toBeNull();
  });

  it('keeps focus inside: past the framed page to the close button, before the button into the page', () => {
    click(link);
    const root = document.querySelector('.studio-overlay') as HTMLElement;
    const [start, , end] = [...root.children] as HTMLElement[];
    end.focus();
    expect(document.activeElement).toBe(document.querySelector('button[aria-label="Close"]'));
    start.focus();
    expect(document.activeElement).toBe(frame());
  });

  it('Escape closes it, focus goes back to the link, the page is as it was', () => {
    click(link);
    document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(dialog()).toBeNull();
    expect(document.activeElement).toBe(link);
    expect(document.querySelector('main')).not.toHaveAttribute('inert');
    expect(document.documentElement.style.overflow).toBe('');
  });

  it('the close button closes it, and so does Escape pressed inside the store page (a message)', () => {
    click(link);
    (document.querySelector('button[aria-label="Close"]') as HTMLButtonElement).click();
    expect(dialog()).toBeNull();
    expect(document.activeElement).toBe(link);
    click(link);
    fromFrame({ type: OVERLAY_MESSAGES.close });
    expect(dialog()).toBeNull();
  });

  it("follows the store page's height, from the iframe's origin only", () => {
    click(link);
    fromFrame({ type: OVERLAY_MESSAGES.height, height: 1234.4 });
    expect(frame().style.height).toBe('1235px');
    fromFrame({ type: OVERLAY_MESSAGES.height, height: 10 }, 'https://evil.test');
    fromFrame({ type: OVERLAY_MESSAGES.height, height: 10 }, 'https://app.example.test', window);
    fromFrame({ type: OVERLAY_MESSAGES.height, height: 'tall' });
    fromFrame({ type: OVERLAY_MESSAGES.close }, 'https://evil.test');
    expect(frame().style.height).toBe('1235px');
    expect(dialog()).not.toBeNull();
  });

  it('dispatches studio:purchase-complete with the order number when the store says so', () => {
    const heard: unknown[] = [];
    document.addEventListener(PURCHASE_EVENT, (event) => heard.push((event as CustomEvent).detail));
    click(link);
    fromFrame({ type: OVERLAY_MESSAGES.purchase, order_number: 1042 }, 'https://evil.test');
    expect(heard).toEqual([]);
    fromFrame({ type: OVERLAY_MESSAGES.purchase, order_number: 1042 });
    expect(heard).toEqual([{ order_number: 1042 }]);
  });
});
