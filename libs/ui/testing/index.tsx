/** Test helpers for the browser workspaces: providers around a component and a routed fetch mock. */
import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { App } from 'antd';
import { OverlayProvider } from '../src/overlay/overlay-context';
import { SessionContext } from '../src/session/session-context';
import type { Session } from '../src/api/api-types';

export const TEST_SESSION: Session = {
  user: {
    user_id: '11111111-1111-4111-8111-111111111111',
    email: 'owner@demo.studio',
    first_name: 'Olive',
    last_name: 'Owner',
    role: 'owner',
    organization_id: '22222222-2222-4222-8222-222222222222',
  },
  organization: {
    organization_id: '22222222-2222-4222-8222-222222222222',
    name: 'Demo Studio',
    timezone: 'America/New_York',
    listed_course: true,
    public_url: 'https://shop.demo.studio',
  },
};

export function Providers({
  children,
  session = TEST_SESSION,
}: {
  children: ReactNode;
  session?: Session | null;
}) {
  return (
    <App>
      <SessionContext.Provider
        value={{ session, refresh: async () => undefined, signOut: async () => undefined }}
      >
        <OverlayProvider>{children}</OverlayProvider>
      </SessionContext.Provider>
    </App>
  );
}

export function renderWithProviders(ui: ReactElement, session: Session | null = TEST_SESSION) {
  return render(<Providers session={session}>{ui}</Providers>);
}

export interface MockAnswer {
  status?: number;
  body?: unknown;
}

export interface RecordedCall {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * Replaces global fetch. Routes are "METHOD /path" (query included when given) mapped to an answer
 * or a function of the call; anything else answers 404. Returns the calls made.
 */
export function mockFetch(
  routes: Record<string, MockAnswer | ((call: RecordedCall) => MockAnswer)>,
): RecordedCall[] {
  const calls: RecordedCall[] = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const call: RecordedCall = {
      method,
      url,
      // Multipart uploads are recorded as their FormData; JSON bodies are parsed.
      body:
        init?.body instanceof FormData
          ? init.body
          : init?.body
            ? JSON.parse(String(init.body))
            : undefined,
      headers: { ...(init?.headers as Record<string, string>) },
    };
    calls.push(call);
    const path = url.split('?')[0];
    const route = routes[`${method} ${url}`] ?? routes[`${method} ${path}`];
    const answer =
      typeof route === 'function'
        ? route(call)
        : (route ?? { status: 404, body: { statusCode: 404, message: 'Not found' } });
    const status = answer.status ?? 200;
    // jsdom has no Response; the client only reads ok, status and text().
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return { ok: status >= 200 && status < 300, status, text: async () => text } as Response;
  }) as typeof fetch;
  return calls;
}
