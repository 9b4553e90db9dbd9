/** Test helpers for the browser workspaces: providers around a component and a routed fetch mock. */
import { useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { StyleProvider } from '@ant-design/cssinjs';
import { App } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { paths } from '@studio/contracts/src/generated/api';
import { OverlayProvider } from '../src/overlay/overlay-context';
import { SessionContext } from '../src/session/session-context';
import { onUnauthorized } from '../src/api/typed-client';
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
    slug: 'demo-studio',
    public_url: 'https://shop.demo.studio',
    store_url: 'https://shop.demo.studio',
    app_store_url: 'http://localhost:3000/s/demo-studio',
    reminder_offsets_mins: [1440],
    waitlist_claim_hours: 12,
  },
};

/** A fresh cache per test, no retries: a failed answer shows at once. */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
}

const noSignOut = async () => undefined;

/** Like the shell's session provider: a 401 anywhere calls the session's signOut. */
function UnauthorizedSignsOut({ signOut }: { signOut: () => Promise<void> }) {
  useEffect(() => onUnauthorized(() => void signOut()), [signOut]);
  return null;
}

export function Providers({
  children,
  session = TEST_SESSION,
  signOut = noSignOut,
  queryClient,
}: {
  children: ReactNode;
  session?: Session | null;
  signOut?: () => Promise<void>;
  queryClient?: QueryClient;
}) {
  const [fallbackClient] = useState(createTestQueryClient);
  // antd's CSS-in-JS is generated but not injected ("server" mode): jsdom recomputes the whole cascade of
  // every injected rule on each getComputedStyle, which testing-library calls for every role query. The
  // tests assert classes and text, not computed styles; the mfe-courses suite runs about 4x faster.
  return (
    <StyleProvider mock="server">
      <App>
        <QueryClientProvider client={queryClient ?? fallbackClient}>
          <SessionContext.Provider value={{ session, refresh: async () => undefined, signOut }}>
            <UnauthorizedSignsOut signOut={signOut} />
            <OverlayProvider>{children}</OverlayProvider>
          </SessionContext.Provider>
        </QueryClientProvider>
      </App>
    </StyleProvider>
  );
}

export function renderWithProviders(
  ui: ReactElement,
  session: Session | null = TEST_SESSION,
  options: { signOut?: () => Promise<void>; queryClient?: QueryClient } = {},
) {
  const queryClient = options.queryClient ?? createTestQueryClient();
  return render(
    <Providers session={session} signOut={options.signOut} queryClient={queryClient}>
      {ui}
    </Providers>,
  );
}

/** Type-only brand (no value at run time): only typed() below gives an answer this key. */
declare const typedAnswer: unique symbol;

interface AnswerFields {
  status?: number;
  body?: unknown;
  /** Fail like a dropped connection (fetch rejects with a TypeError). */
  networkError?: boolean;
}

/**
 * A mocked answer, made only by okBody (typed by the generated success body), errorBody (the API's
 * one error shape), noContent and networkError. It carries a type-only brand, so a literal
 * `{ body }` or `{ status, body }`, which nothing checks against the API, is a compile error both
 * as a route's answer and as a route function's return.
 */
export interface MockAnswer extends AnswerFields {
  readonly [typedAnswer]: true;
}

/** The one place a plain answer becomes a MockAnswer: the helpers below have checked its shape. */
const typed = (answer: AnswerFields): MockAnswer => answer as MockAnswer;

/** A dropped connection: fetch rejects with a TypeError. */
export const networkError = (): MockAnswer => typed({ networkError: true });

/** 204 No Content. */
export const noContent = (): MockAnswer => typed({ status: 204 });

export interface RecordedCall {
  method: string;
  /** Path and query, as the route keys name them. */
  url: string;
  body: unknown;
  /** Header names lower-case, as fetch's Headers gives them. */
  headers: Record<string, string>;
}

type Json<R> = R extends { content: { 'application/json': infer B } }
  ? B
  : R extends { content: { 'text/csv': infer C } }
    ? C
    : never;

type Method = 'get' | 'post' | 'put' | 'delete';

/** The generated body of an operation's success answer (200, else 201, else 202). */
export type OkBodyOf<P extends keyof paths, M extends Method> = paths[P][M] extends {
  responses: infer R;
}
  ? 200 extends keyof R
    ? Json<R[200]>
    : 201 extends keyof R
      ? Json<R[201]>
      : 202 extends keyof R
        ? Json<R[202]>
        : never
  : never;

/**
 * A success answer typed by the operation's generated response (200, else 201, else 202; it is
 * sent as 200, which the typed client reads the same): an invented field, or a missing one, fails
 * the typecheck. `okBody<'/api/admin/activities/{activity_id}', 'get'>({ … })`. A fixture kept in a
 * constant is checked for invented fields only where it is written: type it `OkBodyOf<…>` too.
 */
export function okBody<P extends keyof paths, M extends Method>(body: OkBodyOf<P, M>): MockAnswer {
  return typed({ status: 200, body });
}

/** An error answer in the API's one error shape (ARCHITECTURE.md). */
export function errorBody(status: number, message: string, errors?: Record<string, string>): MockAnswer {
  return typed({ status, body: { statusCode: status, message, ...(errors ? { errors } : {}) } });
}

async function recordBody(request: Request): Promise<unknown> {
  if (request.method === 'GET' || request.method === 'HEAD' || !request.body) return undefined;
  // Multipart uploads are recorded as their FormData; JSON bodies are parsed.
  if ((request.headers.get('content-type') ?? '').startsWith('multipart/form-data'))
    return request.clone().formData();
  const text = await request.clone().text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Replaces global fetch. Routes are "METHOD /path" (query included when given) mapped to an answer
 * or a function of the call (which may wait, to hold a save in flight); anything else answers 404.
 * Returns the calls made.
 */
export type MockRoute = MockAnswer | ((call: RecordedCall) => MockAnswer | Promise<MockAnswer>);

export function mockFetch(routes: Record<string, MockRoute>): RecordedCall[] {
  const calls: RecordedCall[] = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request =
      input instanceof Request ? input : new Request(new URL(String(input), window.location.origin), init);
    const url = new URL(request.url);
    const call: RecordedCall = {
      method: request.method,
      url: `${url.pathname}${url.search}`,
      body: undefined,
      headers: Object.fromEntries(request.headers.entries()),
    };
    // Recorded at once (a test with fake timers counts calls synchronously); the body follows.
    calls.push(call);
    call.body = await recordBody(request);
    const route = routes[`${call.method} ${call.url}`] ?? routes[`${call.method} ${url.pathname}`];
    const answer = typeof route === 'function' ? await route(call) : (route ?? errorBody(404, 'Not found'));
    if (answer.networkError) throw new TypeError('Failed to fetch');
    const status = answer.status ?? 200;
    if (status === 204) return new Response(null, { status });
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return new Response(text, { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return calls;
}

/**
 * Freezes the clock's date only (timers keep running), so the formatters' "current year" and
 * relative badges do not change with the day the tests run.
 */
export function freezeToday(iso: string): void {
  jest.useFakeTimers({
    now: new Date(iso),
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
}

type CourseSummary = OkBodyOf<'/api/admin/activities', 'get'>['activities'][number];

/** One row of GET /api/admin/activities, as the API answers it. */
export function courseSummary(overrides: Partial<CourseSummary> = {}): CourseSummary {
  return {
    activity_id: 'c1',
    name: 'Wheel throwing',
    activity_type: 'scheduled',
    listed: true,
    image: null,
    price_type: 'standard',
    unit_price: 4500,
    capacity: 8,
    location_address: '1 Main St',
    next_session_at: null,
    session_count: 0,
    created_at: '2026-01-05T15:00:00Z',
    ...overrides,
  };
}

type CourseSessionRow = OkBodyOf<'/api/admin/activities/{activity_id}/sessions', 'get'>['sessions'][number];

/** One row of GET /api/admin/activities/{activity_id}/sessions, as the API answers it. */
export function courseSession(overrides: Partial<CourseSessionRow> = {}): CourseSessionRow {
  return {
    event_id: 'e1',
    name: 'Wheel throwing',
    start: '2026-03-14T23:30:00Z',
    end: '2026-03-15T01:30:00Z',
    internal_short_description: null,
    capacity: 8,
    enrolled: 0,
    price: 4500,
    badge: 'Open',
    Location: { address: '1 Main St', timezone: { timeZoneId: 'America/New_York' } },
    schedule: [{ start_date: '2026-03-14', start_time: '18:30', duration: 120 }],
    ...overrides,
  };
}

type CourseOut = OkBodyOf<'/api/admin/activities/{activity_id}', 'get'>;

/** GET /api/admin/activities/{activity_id} as the API answers it. */
export function courseDetail(overrides: Partial<CourseOut> = {}): CourseOut {
  return {
    activity_id: 'a1',
    name: 'Wheel throwing for beginners',
    description: 'Learn to centre clay on the wheel.',
    capacity: 8,
    price_type: 'standard',
    prices: [{ unit_price: 4500 }],
    images: ['/media/a.png'],
    location_id: 'l1',
    instructor_id: 'i1',
    Location: { address: '1 Clay St', timezone: { timeZoneId: 'America/New_York' } },
    Instructor: { first_name: 'Ada', photo_url: null },
    level: 'Beginner',
    category_id: 4,
    material: 'Ceramics',
    tools: '',
    auto_email: 'See you soon',
    cancel_policy_id: 3,
    reschedule_policy_id: 4,
    activity_type: 'scheduled',
    single_party: false,
    status: 'listed',
    form_collection_type: 'order',
    required_form_id: null,
    RequiredForm: null,
    RequiredTemplates: [],
    buffer_before_mins: 0,
    buffer_after_mins: 0,
    min_notice_mins: 0,
    start_time_increments_mins: 30,
    duration_mins: 60,
    booking_window_days: 60,
    availability: null,
    default_days: 1,
    default_days_apart: 1,
    default_daily_mins: 60,
    default_start_time: '12:00',
    sync_with_eventbrite: false,
    eventbrite_event_id: null,
    Event: [],
    syncMappings: [],
    Organization: { SyncProvider: [] },
    listed: true,
    has_events: true,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

type ProductRow = OkBodyOf<'/api/admin/products', 'get'>['products'][number];

/** One row of GET /api/admin/products, as the API answers it. */
export function productSummary(overrides: Partial<ProductRow> = {}): ProductRow {
  return {
    product_id: 'p1',
    name: 'Glaze sampler kit',
    image: null,
    status: 'published',
    unit_price: 3200,
    category: 'oneTime',
    renewal_interval_unit: null,
    renewal_interval_quantity: null,
    earned_loyalty_points: null,
    grant: 'none',
    membership_bookings: null,
    membership_unlimited: false,
    pack_credits: null,
    pack_expires_after_quantity: null,
    pack_expires_after_unit: null,
    covers_activity_ids: null,
    covers_category_ids: null,
    created_at: '2026-01-05T15:00:00Z',
    ...overrides,
  };
}

type ProductOut = OkBodyOf<'/api/admin/products/{product_id}', 'get'>;

/** GET /api/admin/products/{product_id} as the API answers it. */
export function productDetail(
  overrides: Partial<Omit<ProductOut, 'MainVariant'>> & {
    price?: Partial<ProductOut['MainVariant']['current_price']>;
  } = {},
): ProductOut {
  const { price, ...rest } = overrides;
  return {
    product_id: 'p1',
    name: 'Studio membership',
    description: 'Open studio hours every week.',
    status: 'published',
    images: ['/api/media/o/p1.png'],
    download_url: null,
    MainVariant: {
      current_price: {
        price_id: 'pr1',
        unit_price: 4900,
        category: 'subscription',
        renewal_interval_unit: 'months',
        renewal_interval_quantity: 1,
        earned_loyalty_points: null,
        grant: 'none',
        membership_bookings: null,
        membership_unlimited: false,
        pack_credits: null,
        pack_expires_after_quantity: null,
        pack_expires_after_unit: null,
        covers_activity_ids: null,
        covers_category_ids: null,
        created_at: '2026-01-05T15:00:00Z',
        ...price,
      },
    },
    created_at: '2026-01-05T15:00:00Z',
    updated_at: '2026-01-05T15:00:00Z',
    ...rest,
  };
}
