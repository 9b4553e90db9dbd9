import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  courseSession,
  courseSummary,
  errorBody,
  mockFetch,
  okBody,
  productSummary,
  renderWithProviders,
  type OkBodyOf,
} from '@studio/ui/testing';
import { ShareDrawer } from './share.drawer';

type SessionsBody = OkBodyOf<'/api/admin/activities/{activity_id}/sessions', 'get'>;

/* Answers typed by the generated response bodies: an invented field fails the typecheck. */
const COURSES = okBody<'/api/admin/activities', 'get'>({
  activities: [
    courseSummary({ activity_id: 'c1', name: 'Wheel throwing' }),
    courseSummary({ activity_id: 'c2', name: 'Leather wallets' }),
  ],
  totalCount: 2,
  currentPage: 1,
  itemsPerPage: 1000,
});
const SESSIONS_C1: SessionsBody = {
  sessions: [
    courseSession({ event_id: 'e1', start: '2026-03-14T23:30:00Z' }),
    courseSession({
      event_id: 'e2',
      start: '2026-03-21T23:30:00Z',
      internal_short_description: 'Late class',
    }),
  ],
};
const SESSIONS_C2: SessionsBody = {
  sessions: [courseSession({ event_id: 'e9', start: '2026-04-01T15:00:00Z' })],
};
const close = jest.fn();

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

const linkBox = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const dateToggle = () => screen.getByRole('switch', { name: 'Link to a specific course date?' });

/** The toggle is disabled while the course's sessions load. */
async function sessionsLoaded() {
  await waitFor(() => expect(dateToggle()).not.toBeDisabled());
}

const sessionsOf = (body: SessionsBody = { sessions: [] }) =>
  okBody<'/api/admin/activities/{activity_id}/sessions', 'get'>(body);

function catalog(sessions: Record<string, SessionsBody> = { c1: SESSIONS_C1, c2: SESSIONS_C2 }) {
  return mockFetch({
    'GET /api/admin/activities': COURSES,
    'GET /api/admin/activities/c1/sessions': sessionsOf(sessions.c1),
    'GET /api/admin/activities/c2/sessions': sessionsOf(sessions.c2),
  });
}

describe('ShareDrawer, course', () => {
  it('links the first course, and the overlay tab adds ?openModal=true', async () => {
    const calls = catalog();
    renderWithProviders(<ShareDrawer data={{ mode: 'course' }} close={close} />);
    expect(screen.getByRole('heading', { name: 'Share course' })).toBeInTheDocument();
    await waitFor(() => expect(linkBox('Checkout link').value).toBe('https://shop.demo.studio/activity/c1'));
    fireEvent.click(screen.getByRole('tab', { name: 'Checkout overlay' }));
    await waitFor(() =>
      expect(linkBox('Checkout overlay link').value).toBe(
        'https://shop.demo.studio/activity/c1?openModal=true',
      ),
    );
    expect(screen.getByText(/needs the header code installed/)).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toContain(
      '/api/admin/activities/c1/sessions?include_past=false&limit=10000',
    );
  });

  it('links the first session when the date toggle is on, with its label', async () => {
    catalog();
    renderWithProviders(<ShareDrawer data={{ mode: 'course' }} close={close} />);
    expect(
      screen.getByText('Customers will be sent directly to checkout and bypass date selection.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(linkBox('Checkout link').value).toContain('/activity/c1'));
    await sessionsLoaded();
    fireEvent.click(dateToggle());
    await waitFor(() =>
      expect(linkBox('Checkout link').value).toBe('https://shop.demo.studio/checkout?event_id=e1'),
    );
    expect(screen.getByText('Starts Mar 14, 7:30 PM')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Checkout overlay' }));
    await waitFor(() =>
      expect(linkBox('Checkout overlay link').value).toBe(
        'https://shop.demo.studio/checkout?event_id=e1&openModal=true',
      ),
    );
  });

  it("refuses the date toggle with 'No dates available' when the course has no sessions", async () => {
    catalog({});
    renderWithProviders(<ShareDrawer data={{ mode: 'course', activity_id: 'c1' }} close={close} />);
    await waitFor(() => expect(linkBox('Checkout link').value).toContain('/activity/c1'));
    await sessionsLoaded();
    const toggle = dateToggle();
    fireEvent.click(toggle);
    expect(await screen.findByText('No dates available')).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(linkBox('Checkout link').value).toBe('https://shop.demo.studio/activity/c1');
  });

  it('changing the course reloads its sessions and selects the first', async () => {
    const calls = catalog();
    renderWithProviders(<ShareDrawer data={{ mode: 'course' }} close={close} />);
    await waitFor(() => expect(linkBox('Checkout link').value).toContain('/activity/c1'));
    await sessionsLoaded();
    fireEvent.click(dateToggle());
    await waitFor(() => expect(linkBox('Checkout link').value).toContain('event_id=e1'));

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Course' }));
    await waitFor(() => expect(document.querySelector('.ant-select-dropdown')).not.toBeNull());
    fireEvent.click(
      within(document.querySelector('.ant-select-dropdown') as HTMLElement).getByText('Leather wallets'),
    );
    await waitFor(() =>
      expect(linkBox('Checkout link').value).toBe('https://shop.demo.studio/checkout?event_id=e9'),
    );
    expect(calls.map((c) => c.url)).toContain(
      '/api/admin/activities/c2/sessions?include_past=false&limit=10000',
    );
  });

  it("shows 'Copied!' for 2 seconds after copying", async () => {
    catalog();
    const writeText = jest.fn(async () => undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    renderWithProviders(<ShareDrawer data={{ mode: 'course' }} close={close} />);
    await waitFor(() => expect(linkBox('Checkout link').value).toContain('/activity/c1'));
    jest.useFakeTimers();
    try {
      await act(async () => {
        fireEvent.click(screen.getAllByRole('button', { name: /Copy/ })[0]);
      });
      expect(writeText).toHaveBeenCalledWith('https://shop.demo.studio/activity/c1');
      expect(screen.getByRole('button', { name: /Copied!/ })).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(1900));
      expect(screen.getByRole('button', { name: /Copied!/ })).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(200));
      expect(screen.queryByRole('button', { name: /Copied!/ })).not.toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  it('pickers: a failed course list is only logged and stays empty, with no error state', async () => {
    mockFetch({ 'GET /api/admin/activities': errorBody(500, 'Something went wrong on our side') });
    renderWithProviders(<ShareDrawer data={{ mode: 'course' }} close={close} />);
    await waitFor(() =>
      expect(console.error).toHaveBeenCalledWith('Could not load courses', expect.anything()),
    );
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Share course' })).toBeInTheDocument();
    expect(linkBox('Checkout link').value).toBe('');
  });
});

const PRODUCTS = okBody<'/api/admin/products', 'get'>({
  products: [
    productSummary({ product_id: 'p1', name: 'Glaze sampler kit' }),
    productSummary({ product_id: 'p2', name: 'Studio membership', category: 'subscription' }),
  ],
  totalCount: 2,
  currentPage: 1,
  itemsPerPage: 10000,
});

describe('ShareDrawer, product', () => {
  it('reads the real product list (limit=10000) and links the first product', async () => {
    const calls = mockFetch({ 'GET /api/admin/products': PRODUCTS });
    renderWithProviders(<ShareDrawer data={{ mode: 'product' }} close={close} />);
    expect(screen.getByRole('heading', { name: 'Share product' })).toBeInTheDocument();
    await waitFor(() =>
      expect(linkBox('Checkout link').value).toBe('https://shop.demo.studio/checkout?product_id=p1'),
    );
    expect(calls.map((c) => c.url)).toContain('/api/admin/products?limit=10000');
    expect(screen.queryByText('Products are not available yet.')).not.toBeInTheDocument();
  });

  it('another product picked changes both links; the overlay adds &openModal=true', async () => {
    mockFetch({ 'GET /api/admin/products': PRODUCTS });
    renderWithProviders(<ShareDrawer data={{ mode: 'product' }} close={close} />);
    await waitFor(() => expect(linkBox('Checkout link').value).toContain('product_id=p1'));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Product' }));
    fireEvent.click(await screen.findByText('Studio membership'));
    expect(linkBox('Checkout link').value).toBe('https://shop.demo.studio/checkout?product_id=p2');
    fireEvent.click(screen.getByRole('tab', { name: 'Checkout overlay' }));
    await waitFor(() =>
      expect(linkBox('Checkout overlay link').value).toBe(
        'https://shop.demo.studio/checkout?product_id=p2&openModal=true',
      ),
    );
    const docs = screen.getByRole('link', { name: 'Read the docs' });
    expect(docs).toHaveAttribute('href', '/admin/settings/organization#checkout-overlay');
  });

  it('a product handed in (from its drawer) is the one linked', async () => {
    mockFetch({ 'GET /api/admin/products': PRODUCTS });
    renderWithProviders(<ShareDrawer data={{ mode: 'product', product_id: 'p2' }} close={close} />);
    expect(linkBox('Checkout link').value).toBe('https://shop.demo.studio/checkout?product_id=p2');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Product' })).toBeInTheDocument());
    await screen.findByText('Studio membership');
    expect(linkBox('Checkout link').value).toBe('https://shop.demo.studio/checkout?product_id=p2');
  });

  it('a failed product list is only logged: the picker stays empty, no error state', async () => {
    mockFetch({ 'GET /api/admin/products': errorBody(500, 'Something went wrong on our side') });
    renderWithProviders(<ShareDrawer data={{ mode: 'product' }} close={close} />);
    await waitFor(() =>
      expect(console.error).toHaveBeenCalledWith('Could not load products', expect.anything()),
    );
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(linkBox('Checkout link').value).toBe('');
  });
});
