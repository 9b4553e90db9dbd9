// antd reads matchMedia (responsive grid) and getComputedStyle(elt, pseudo) (scroll bar size); jsdom has neither.
import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';
import { configure } from '@testing-library/react';

// react-router reads TextEncoder at import; jsdom does not define it.
Object.assign(globalThis, { TextEncoder, TextDecoder });

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

const { getComputedStyle } = window;
window.getComputedStyle = (elt: Element) => getComputedStyle(elt);

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
(window as unknown as { ResizeObserver: unknown }).ResizeObserver ??= ResizeObserverStub;

// Some rc-components schedule work through MessageChannel; a timer-based stand-in is enough here.
class MessageChannelStub {
  port1: { onmessage: ((event: { data: unknown }) => void) | null; close: () => void } = {
    onmessage: null,
    close: () => undefined,
  };
  port2 = {
    postMessage: (data: unknown) => setTimeout(() => this.port1.onmessage?.({ data })),
    close: () => undefined,
  };
}
(globalThis as unknown as { MessageChannel: unknown }).MessageChannel ??= MessageChannelStub;

// findBy/waitFor default to 1 s; antd drawers on a busy two-core machine (nx runs two suites at once) need longer.
configure({ asyncUtilTimeout: 5000 });
