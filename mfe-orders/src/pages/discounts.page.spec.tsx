import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import {
  createTestQueryClient,
  errorBody,
  freezeToday,
  mockFetch,
  okBody,
  renderWithProviders,
  type RecordedCall,
} from '@studio/ui/testing';
import { useDrawer } from '@studio/ui';
import { discountKeys, type PromoCode } from './discounts.api';
import { DiscountsPage } from './discounts.page';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

const code = (n: number, overrides: Partial<PromoCode> = {}): PromoCode => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  label: `Label ${n}`,
  code: `CODE${n}`,
  type: 'percentage',
  value: 10,
  activity_id: null,
  apply_logic: 'once',
  start_date: null,
  expiration_date: null,
  times_used: 0,
  status: 'active',
  created_at: '2026-11-01T12:00:00.000Z',
  updated_at: '2026-11-01T12:00:00.000Z',
  ...overrides,
});

const page = (rows: PromoCode[], totalCount = rows.length) =>
  okBody<'/api/admin/promo-code', 'get'>({ promo_codes: rows, totalCount, currentPage: 1, itemsPerPage: 20 });

function OpenDrawer() {
  const { current } = useDrawer();
  return (
    <output aria-label="open drawer">
      {current ? `${current.type} ${JSON.stringify(current.data)}` : ''}
    </output>
  );
}

function renderPage(queryClient = createTestQueryClient()) {
  renderWithProviders(
    <MemoryRouter>
      <OpenDrawer />
      <DiscountsPage />
    </MemoryRouter>,
    undefined,
    { queryClient },
  );
  return queryClient;
}

const params = (call: RecordedCall) => Object.fromEntries(new URL(call.url, 'http://x').searchParams);

describe('Discounts page', () => {
  it('shows code, value, window in the organization zone, status and times used', async () => {
    freezeToday('2026-11-22T15:00:00Z');
    mockFetch({
      'GET /api/admin/promo-code': page([
        code(1, {
          code: 'WHEEL15',
          type: 'dollar',
          value: 1500,
          apply_logic: 'each',
          start_date: '2026-11-24T14:00:00.000Z',
          expiration_date: '2026-11-25T04:00:00.000Z',
          status: 'scheduled',
          times_used: 3,
        }),
        code(2, {
          code: 'SUMMER25',
          value: 25,
          status: 'expired',
          expiration_date: '2026-08-01T03:00:00.000Z',
          times_used: 12,
        }),
        code(3, { code: 'WELCOME10', status: 'active' }),
      ]),
    });
    renderPage();
    const wheel = await screen.findByRole('row', { name: /WHEEL15/ }, { timeout: 3000 });
    expect(within(wheel).getByText('$15.00 off each item')).toBeInTheDocument();
    // 04:00 UTC on Nov 25 is 11 PM on Nov 24 in New York.
    expect(wheel).toHaveTextContent(/Tue, Nov 24 9:00 AM( EST)? – Tue, Nov 24 11:00 PM( EST)?/);
    expect(within(wheel).getByText('Scheduled')).toBeInTheDocument();
    expect(within(wheel).getByText('3')).toBeInTheDocument();
    const summer = screen.getByRole('row', { name: /SUMMER25/ });
    expect(within(summer).getByText('25% off the order')).toBeInTheDocument();
    expect(summer).toHaveTextContent(/Until Fri, Jul 31 11:00 PM( EDT)?/);
    expect(within(summer).getByText('Expired')).toBeInTheDocument();
    expect(within(summer).getByText('12')).toBeInTheDocument();
    const welcome = screen.getByRole('row', { name: /WELCOME10/ });
    expect(within(welcome).getByText('No end date')).toBeInTheDocument();
    expect(within(welcome).getByText('Active')).toBeInTheDocument();
  });

  it('searches and pages on the server', async () => {
    const calls = mockFetch({
      'GET /api/admin/promo-code': ({ url }) => {
        const q = new URL(url, 'http://x').searchParams;
        if (q.get('search')) return page([code(7, { code: 'SPRING7' })], 1);
        return page(
          Array.from({ length: 20 }, (_, i) => code(i + 1 + (Number(q.get('page')) - 1) * 20)),
          45,
        );
      },
    });
    renderPage();
    await screen.findByRole('row', { name: /CODE1\b/ }, { timeout: 3000 });
    expect(params(calls[0])).toEqual({ page: '1', limit: '20' });
    expect(screen.getByText('45 discounts')).toBeInTheDocument();
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByRole('row', { name: /CODE21\b/ });
    expect(params(calls[calls.length - 1])).toEqual({ page: '2', limit: '20' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search discounts' }), {
      target: { value: 'spring' },
    });
    await waitFor(() => expect(params(calls.at(-1)!)).toEqual({ page: '1', limit: '20', search: 'spring' }), {
      timeout: 5000,
    });
    expect(await screen.findByRole('row', { name: /SPRING7/ }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('1 discount')).toBeInTheDocument();
  }, 90000);

  it('"New discount" opens the discount drawer; a row opens Edit Discount with its id', async () => {
    mockFetch({ 'GET /api/admin/promo-code': page([code(4, { code: 'OPENME' })]) });
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: /New discount/ }));
    expect(screen.getByRole('status', { name: 'open drawer' })).toHaveTextContent('discount {}');
    fireEvent.click(await screen.findByRole('row', { name: /OPENME/ }, { timeout: 3000 }));
    expect(screen.getByRole('status', { name: 'open drawer' })).toHaveTextContent(
      `discount {"id":"${code(4).id}"}`,
    );
  });

  it('reads the list again when a save invalidates the promo-code keys', async () => {
    let saved = false;
    mockFetch({
      'GET /api/admin/promo-code': () =>
        page(saved ? [code(1, { code: 'EDITED' })] : [code(1, { code: 'BEFORE' })]),
    });
    const client = renderPage();
    await screen.findByRole('row', { name: /BEFORE/ }, { timeout: 3000 });
    saved = true;
    await act(() => client.invalidateQueries({ queryKey: discountKeys.lists() }));
    expect(await screen.findByRole('row', { name: /EDITED/ })).toBeInTheDocument();
  });

  it('a failed load shows the error with Retry, never "No discounts yet"', async () => {
    let fail = true;
    mockFetch({
      'GET /api/admin/promo-code': () =>
        fail ? errorBody(500, 'Something went wrong on our side') : page([code(9, { code: 'BACK' })]),
    });
    renderPage();
    const retry = await screen.findByRole('button', { name: 'Retry' }, { timeout: 3000 });
    expect(screen.getByText('Could not load the discounts')).toBeInTheDocument();
    expect(screen.queryByText('No discounts yet')).not.toBeInTheDocument();
    fail = false;
    fireEvent.click(retry);
    await waitFor(() => expect(screen.getByRole('row', { name: /BACK/ })).toBeInTheDocument());
  });
});
