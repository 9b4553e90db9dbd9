import { navigate, reportToOverlay } from './framed';
import { OVERLAY_MESSAGES } from './overlay/protocol';

describe('a store page in the checkout overlay', () => {
  const parent = { postMessage: jest.fn() };
  const realParent = Object.getOwnPropertyDescriptor(window, 'parent');
  const frame = () => Object.defineProperty(window, 'parent', { configurable: true, get: () => parent });

  afterEach(() => {
    if (realParent) Object.defineProperty(window, 'parent', realParent);
    parent.postMessage.mockReset();
    jest.restoreAllMocks();
  });

  it('says nothing when it is not framed', () => {
    reportToOverlay('checkout-complete', { status: 'paid', order_number: 7 })();
    expect(parent.postMessage).not.toHaveBeenCalled();
  });

  it('sends its height and Escape; a paid confirmation sends the order number', () => {
    frame();
    jest
      .spyOn(document.documentElement, 'getBoundingClientRect')
      .mockReturnValue({ height: 812.2 } as DOMRect);
    const stop = reportToOverlay('checkout-complete', { status: 'paid', order_number: 1042 });
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(parent.postMessage.mock.calls).toEqual([
      [{ type: OVERLAY_MESSAGES.height, height: 813 }, '*'],
      [{ type: OVERLAY_MESSAGES.purchase, order_number: 1042 }, '*'],
      [{ type: OVERLAY_MESSAGES.close }, '*'],
    ]);
    stop();
  });

  it('a confirmation still waiting for the payment is no purchase', () => {
    frame();
    reportToOverlay('checkout-complete', { status: 'pending', order_number: 1042 })();
    reportToOverlay('course', { status: 'paid' })();
    expect(parent.postMessage.mock.calls.map(([m]) => m.type)).toEqual([
      OVERLAY_MESSAGES.height,
      OVERLAY_MESSAGES.height,
    ]);
  });

  it('framed, a payment page on another origin opens in the top window', () => {
    frame();
    const open = jest.spyOn(window, 'open').mockReturnValue(window);
    navigate('https://checkout.stripe.com/c/pay/cs_1');
    expect(open).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_1', '_top');
  });
});
