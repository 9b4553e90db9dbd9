import { fireEvent, screen, waitFor } from '@testing-library/react';
import { errorBody, mockFetch, okBody, productSummary, renderWithProviders } from '@studio/ui/testing';
import { useDrawer } from '@studio/ui';
import { ProductsPage } from './products.page';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

const PAGE = okBody<'/api/admin/products', 'get'>({
  products: [
    productSummary({
      product_id: 'p1',
      name: 'Glaze sampler kit',
      unit_price: 3500,
      image: '/api/media/o/p1.png',
    }),
    productSummary({
      product_id: 'p2',
      name: 'Open studio membership',
      unit_price: 8900,
      category: 'subscription',
      renewal_interval_unit: 'months',
      renewal_interval_quantity: 1,
    }),
    productSummary({ product_id: 'p3', name: 'Guide to clay', unit_price: 0, category: 'leadMagnet' }),
  ],
  totalCount: 23,
  currentPage: 1,
  itemsPerPage: 20,
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
      <ProductsPage />
    </>,
  );
}

describe('Products page', () => {
  it('lists image, name, price (a subscription with its interval) and category from the server', async () => {
    const calls = mockFetch({ 'GET /api/admin/products': PAGE });
    renderPage();
    expect(await screen.findByText('Glaze sampler kit')).toBeInTheDocument();
    expect(screen.getByText('$35.00')).toBeInTheDocument();
    expect(screen.getByText('$89.00 every month')).toBeInTheDocument();
    expect(screen.getByText('Free')).toBeInTheDocument();
    expect(screen.getByText('Subscription')).toBeInTheDocument();
    expect(screen.getByText('Lead magnet')).toBeInTheDocument();
    expect(screen.getByText('23 products')).toBeInTheDocument();
    expect(calls[0].url).toBe('/api/admin/products?page=1&limit=20');
  });

  it('searches and pages on the server', async () => {
    const calls = mockFetch({ 'GET /api/admin/products': PAGE });
    renderPage();
    await screen.findByText('Glaze sampler kit');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search products' }), {
      target: { value: 'glaze' },
    });
    await waitFor(() =>
      expect(calls.map((c) => c.url)).toContain('/api/admin/products?page=1&limit=20&search=glaze'),
    );
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() =>
      expect(calls.map((c) => c.url)).toContain('/api/admin/products?page=2&limit=20&search=glaze'),
    );
  });

  it('"New product" opens the product drawer; a row opens Edit Product', async () => {
    mockFetch({ 'GET /api/admin/products': PAGE });
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'New product' }));
    expect(screen.getByRole('status', { name: 'open drawer' }).textContent).toMatch(/^product \{/);
    expect(screen.getByRole('status', { name: 'open drawer' }).textContent).not.toContain('product_id');
    fireEvent.click(await screen.findByText('$89.00 every month'));
    expect(screen.getByRole('status', { name: 'open drawer' }).textContent).toContain('"product_id":"p2"');
  });

  it('a failed load shows the error with Retry, not "No products yet"', async () => {
    let fail = true;
    mockFetch({
      'GET /api/admin/products': () => (fail ? errorBody(500, 'Something went wrong on our side') : PAGE),
    });
    renderPage();
    expect(await screen.findByText('Could not load the products')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Glaze sampler kit')).toBeInTheDocument();
  });
});
