import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { errorBody, mockFetch, okBody, renderWithProviders } from '@studio/ui/testing';
import { useDrawer } from '@studio/ui';
import type { OrderSummary } from './orders.api';
import { OrdersPage } from './orders.page';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

const row = (over: Partial<OrderSummary>): OrderSummary => ({
  order_id: 'o1',
  order_number: 1001,
  status: 'paid',
  source: 'workbench',
  total: 4500,
  refunded_amount: 0,
  created_at: '2026-03-05T18:00:00Z',
  Student: { student_id: 's1', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  ...over,
});

const PAGE = okBody<'/api/admin/orders', 'get'>({
  orders: [
    row({}),
    row({
      order_id: 'o2',
      order_number: 1002,
      status: 'partial_refund',
      total: 12000,
      refunded_amount: 3000,
    }),
    row({
      order_id: 'o3',
      order_number: 1003,
      status: 'fraudulent',
      source: 'eventbrite',
      total: 700,
      Student: { student_id: 's2', first_name: 'Grace', last_name: 'Hopper', email: 'grace@navy.test' },
    }),
  ],
  totalCount: 45,
  currentPage: 1,
  itemsPerPage: 20,
  next_cursor: null,
});

function OpenDrawer() {
  const { current } = useDrawer();
  return (
    <output aria-label="open drawer">
      {current ? `${current.type} ${JSON.stringify(current.data)}` : ''}
    </output>
  );
}

function renderPage() {
  renderWithProviders(
    <>
      <OpenDrawer />
      <OrdersPage />
    </>,
  );
}

describe('Orders page', () => {
  it('lists number, student, total, status badge and source from the server', async () => {
    const calls = mockFetch({ 'GET /api/admin/orders': PAGE });
    renderPage();
    expect(await screen.findByText('#1001')).toBeInTheDocument();
    const partial = screen.getByText('#1002').closest('tr')!;
    expect(within(partial).getByText('$120.00')).toBeInTheDocument();
    expect(within(partial).getByText('Partially refunded')).toBeInTheDocument();
    // The studio's own sales read "This studio" (the API's "workbench" is not an owner's word).
    expect(within(partial).getByText('This studio')).toBeInTheDocument();
    const synced = screen.getByText('#1003').closest('tr')!;
    expect(within(synced).getByText('Fraudulent')).toBeInTheDocument();
    expect(within(synced).getByText('Eventbrite')).toBeInTheDocument();
    expect(within(synced).getByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByText('45 orders')).toBeInTheDocument();
    expect(screen.queryByText('No orders yet')).not.toBeInTheDocument();
    expect(calls[0].url).toBe('/api/admin/orders?page=1&limit=20');
  });

  it('searches, filters by status and pages on the server', async () => {
    const calls = mockFetch({ 'GET /api/admin/orders': PAGE });
    renderPage();
    await screen.findByText('#1001');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search orders' }), { target: { value: '1002' } });
    await waitFor(() =>
      expect(calls.map((c) => c.url)).toContain('/api/admin/orders?page=1&limit=20&search=1002'),
    );
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Filter by status' }));
    fireEvent.click(await screen.findByTitle('Refunded'));
    await waitFor(() =>
      expect(calls.map((c) => c.url)).toContain(
        '/api/admin/orders?page=1&limit=20&search=1002&status=refunded',
      ),
    );
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() =>
      expect(calls.map((c) => c.url)).toContain(
        '/api/admin/orders?page=2&limit=20&search=1002&status=refunded',
      ),
    );
  });

  it('asks for the next page after the last row shown (cursor) and keeps the first count', async () => {
    const calls = mockFetch({
      'GET /api/admin/orders?page=1&limit=20': okBody<'/api/admin/orders', 'get'>({
        orders: [
          row({}),
          row({ order_id: 'o2', order_number: 1002 }),
          row({ order_id: 'o3', order_number: 1003 }),
        ],
        totalCount: 45,
        currentPage: 1,
        itemsPerPage: 20,
        next_cursor: 'after-1003',
      }),
      'GET /api/admin/orders?page=2&cursor=after-1003&limit=20': okBody<'/api/admin/orders', 'get'>({
        orders: [row({ order_id: 'o4', order_number: 1004 })],
        totalCount: null,
        currentPage: 2,
        itemsPerPage: 20,
        next_cursor: null,
      }),
      'GET /api/admin/orders?page=3&limit=20': PAGE,
    });
    renderPage();
    await screen.findByText('#1001');
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('#1004')).toBeInTheDocument();
    expect(screen.getByText('45 orders')).toBeInTheDocument();
    // A page jumped to (not the next one) is asked for by number.
    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('/api/admin/orders?page=3&limit=20'));
  });

  it('sorts by total and by order number on the server', async () => {
    const calls = mockFetch({ 'GET /api/admin/orders': PAGE });
    renderPage();
    await screen.findByText('#1001');
    fireEvent.click(screen.getAllByText('Total')[0]);
    await waitFor(() =>
      expect(calls.map((c) => c.url)).toContain(
        '/api/admin/orders?page=1&limit=20&sortField=total&sortOrder=asc',
      ),
    );
    fireEvent.click(screen.getAllByText('Total')[0]);
    await waitFor(() =>
      expect(calls.map((c) => c.url)).toContain(
        '/api/admin/orders?page=1&limit=20&sortField=total&sortOrder=desc',
      ),
    );
    fireEvent.click(screen.getAllByText('Order')[0]);
    await waitFor(() =>
      expect(calls.map((c) => c.url)).toContain(
        '/api/admin/orders?page=1&limit=20&sortField=order_number&sortOrder=asc',
      ),
    );
  });

  it('a row opens the order drawer', async () => {
    mockFetch({ 'GET /api/admin/orders': PAGE });
    renderPage();
    fireEvent.click(await screen.findByText('#1003'));
    expect(screen.getByRole('status', { name: 'open drawer' }).textContent).toBe('order {"order_id":"o3"}');
  });

  it('a failed load shows the error with Retry, not "No orders yet"', async () => {
    let fail = true;
    mockFetch({
      'GET /api/admin/orders': () => (fail ? errorBody(500, 'Something went wrong on our side') : PAGE),
    });
    renderPage();
    expect(await screen.findByText('Could not load the orders')).toBeInTheDocument();
    expect(screen.queryByText('No orders yet')).not.toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('#1001')).toBeInTheDocument();
  });
});
