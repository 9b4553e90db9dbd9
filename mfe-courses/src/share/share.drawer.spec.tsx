import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '@studio/ui/testing';
import { ShareDrawer } from './share.drawer';

const COURSES = [
  { activity_id: 'c1', name: 'Wheel throwing' },
  { activity_id: 'c2', name: 'Leather wallets' },
];
const SESSIONS_C1 = {
  sessions: [
    {
      event_id: 'e1',
      start: '2026-03-14T23:30:00Z',
      Location: { timezone: { timeZoneId: 'America/New_York' } },
    },
    { event_id: 'e2', start: '2026-03-21T23:30:00Z', internal_short_description: 'Late class' },
  ],
};
const SESSIONS_C2 = { sessions: [{ event_id: 'e9', start: '2026-04-01T15:00:00Z' }] };
const close = jest.fn();

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

const linkBox = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const dateToggle = () => screen.getByRole('switch', { name: 'Link to a specific course date?' });

/** The toggle is disabled while the course's sessions load. */
async function sessionsLoaded() {
  await waitFor(() => expect(dateToggle()).not.toBeDisabled());
}

function catalog(sessions: Record<string, unknown> = { c1: SESSIONS_C1, c2: SESSIONS_C2 }) {
  return mockFetch({
    'GET /api/admin/activities': { body: COURSES },
    'GET /api/admin/activities/c1/sessions': { body: sessions.c1 ?? { sessions: [] } },
    'GET /api/admin/activities/c2/sessions': { body: sessions.c2 ?? { sessions: [] } },
    'GET /api/admin/products': { body: [{ product_id: 'p1', name: 'Gift card' }] },
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

  it('works with empty lists when the catalog endpoints fail', async () => {
    mockFetch({});
    renderWithProviders(<ShareDrawer data={{ mode: 'course' }} close={close} />);
    await waitFor(() => expect(console.error).toHaveBeenCalled());
    expect(screen.getByRole('heading', { name: 'Share course' })).toBeInTheDocument();
    expect(linkBox('Checkout link').value).toBe('');
  });
});

describe('ShareDrawer, product', () => {
  it('links the product checkout, with &openModal=true on the overlay tab', async () => {
    const calls = catalog();
    renderWithProviders(<ShareDrawer data={{ mode: 'product' }} close={close} />);
    expect(screen.getByRole('heading', { name: 'Share product' })).toBeInTheDocument();
    await waitFor(() =>
      expect(linkBox('Checkout link').value).toBe('https://shop.demo.studio/checkout?product_id=p1'),
    );
    fireEvent.click(screen.getByRole('tab', { name: 'Checkout overlay' }));
    await waitFor(() =>
      expect(linkBox('Checkout overlay link').value).toBe(
        'https://shop.demo.studio/checkout?product_id=p1&openModal=true',
      ),
    );
    expect(calls.map((c) => c.url)).toContain('/api/admin/products?limit=10000');
  });
});
