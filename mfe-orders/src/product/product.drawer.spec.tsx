import { fireEvent, screen, waitFor } from '@testing-library/react';
import { productQueries, useDrawer, useQuery, type DrawerData } from '@studio/ui';
import {
  errorBody,
  mockFetch,
  okBody,
  courseSummary,
  productDetail,
  renderWithProviders,
  type RecordedCall,
} from '@studio/ui/testing';
import { PRODUCT_MESSAGES } from '@studio/contracts';
import { ProductDrawer, type ProductDrawerData } from './product.drawer';

/* Answers typed by the generated response bodies: an invented field fails the typecheck. */
const ACTIVE = okBody<'/api/admin/loyalty-program', 'get'>({ status: 'active', unit: 'points' });
const DISABLED = okBody<'/api/admin/loyalty-program', 'get'>({ status: 'disabled', unit: 'points' });
const UPLOADED = okBody<'/api/admin/upload', 'post'>({
  id: '0b5f4d3c-2a1e-4f6d-8c7b-9a8e7d6c5b4a',
  url: '/api/media/o/kit.png',
});
const SAVED = okBody<'/api/admin/products', 'post'>(productDetail({ product_id: 'p9' }));
const MEMBERSHIP = productDetail({
  product_id: 'p1',
  name: 'Studio membership',
  price: {
    unit_price: 4900,
    category: 'subscription',
    renewal_interval_unit: 'months',
    renewal_interval_quantity: 1,
  },
});

/** A product as the products list answers it. */
const productSummaryOf = (p: typeof MEMBERSHIP) => ({
  product_id: p.product_id,
  name: p.name,
  image: null,
  status: 'published' as const,
  unit_price: 4900,
  category: 'subscription' as const,
  renewal_interval_unit: 'months' as const,
  renewal_interval_quantity: 1,
  earned_loyalty_points: null,
  grant: 'none' as const,
  membership_bookings: null,
  membership_unlimited: false,
  pack_credits: null,
  pack_expires_after_quantity: null,
  pack_expires_after_unit: null,
  covers_activity_ids: null,
  covers_category_ids: null,
  created_at: '2026-01-01T00:00:00Z',
});

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

function OpenDrawer() {
  const { current } = useDrawer();
  return (
    <output aria-label="open drawer">
      {current ? `${current.type} ${JSON.stringify(current.data)}` : ''}
    </output>
  );
}

async function renderDrawer(data: ProductDrawerData & DrawerData = {}) {
  const close = jest.fn();
  renderWithProviders(
    <>
      <OpenDrawer />
      <ProductDrawer data={data} close={close} />
    </>,
  );
  await screen.findByRole('button', { name: 'Save' }, { timeout: 5000 });
  return close;
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const posted = (calls: RecordedCall[], method = 'POST') =>
  calls.filter((c) => c.method === method && c.url.startsWith('/api/admin/products'));

async function pickOption(name: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name }));
  const item = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].filter(
      (el) => el.getAttribute('title') === option,
    );
    if (found.length === 0) throw new Error(`no option ${option}`);
    return found[found.length - 1];
  });
  fireEvent.click(item);
}

describe('ProductDrawer, new', () => {
  it('has the General, Pricing, Media and Loyalty sections and no Share button', async () => {
    mockFetch({ 'GET /api/admin/loyalty-program': ACTIVE });
    await renderDrawer();
    expect(screen.getByRole('heading', { name: 'New Product' })).toBeInTheDocument();
    for (const name of ['General', 'Pricing', 'Media', 'Loyalty'])
      expect(screen.getByRole('region', { name })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
    expect(screen.getByText('100 points = $1.00')).toBeInTheDocument();
  });

  it('an empty form shows the spec messages and sends nothing', async () => {
    const calls = mockFetch({ 'GET /api/admin/loyalty-program': ACTIVE });
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A product name is required.')).toBeInTheDocument();
    expect(screen.getByText('Amount must be a valid amount in dollars and cents.')).toBeInTheDocument();
    expect(posted(calls)).toHaveLength(0);
  });

  it('creates a subscription with an image: cents, interval, published; toast "Product added", then closes', async () => {
    const calls = mockFetch({
      'GET /api/admin/loyalty-program': ACTIVE,
      'POST /api/admin/upload': UPLOADED,
      'POST /api/admin/products': SAVED,
    });
    const close = await renderDrawer();
    type('Name', 'Studio membership');
    fireEvent.click(screen.getByRole('radio', { name: 'Subscription' }));
    type('Amount', '49.50');
    type('Renews every', '2');
    await pickOption('Renewal unit', 'weeks');
    fireEvent.change(screen.getByTestId('product-image-input'), {
      target: { files: [new File([new Uint8Array(64)], 'kit.png', { type: 'image/png' })] },
    });
    await screen.findByRole('img', { name: 'Product image 1' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Product added')).toBeInTheDocument();
    expect(posted(calls)[0].body).toEqual({
      productName: 'Studio membership',
      productDescription: '',
      priceType: 'subscription',
      renewalIntervalUnits: 'weeks',
      renewalIntervalQuantity: 2,
      amount: 4950,
      images: ['/api/media/o/kit.png'],
      earnPoints: false,
      status: 'published',
      grant: 'none',
    });
    expect(close).toHaveBeenCalled();
  });

  it('a renewal interval below 1 is refused with its message', async () => {
    mockFetch({ 'GET /api/admin/loyalty-program': ACTIVE });
    await renderDrawer();
    type('Name', 'Membership');
    fireEvent.click(screen.getByRole('radio', { name: 'Subscription' }));
    type('Amount', '10');
    type('Renews every', '0');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('The renewal interval must be a whole number of at least 1.'),
    ).toBeInTheDocument();
  });

  it('a lead magnet may be free: the amount becomes 0', async () => {
    const calls = mockFetch({ 'GET /api/admin/loyalty-program': ACTIVE, 'POST /api/admin/products': SAVED });
    await renderDrawer();
    type('Name', 'Free guide');
    fireEvent.click(screen.getByRole('radio', { name: 'Lead magnet' }));
    expect(screen.getByLabelText('Amount')).toHaveValue('0');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Product added');
    expect(posted(calls)[0].body).toMatchObject({ priceType: 'leadMagnet', amount: 0 });
  });

  it("a lead magnet's download address is asked, checked and sent; switching away hides it and sends none", async () => {
    const calls = mockFetch({ 'GET /api/admin/loyalty-program': ACTIVE, 'POST /api/admin/products': SAVED });
    await renderDrawer();
    type('Name', 'Glaze guide');
    expect(screen.queryByLabelText('Download address')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: 'Lead magnet' }));
    type('Download address', 'not a link');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(PRODUCT_MESSAGES.downloadUrl)).toBeInTheDocument();
    expect(posted(calls)).toHaveLength(0);
    type('Download address', 'https://clay.example/glaze-guide.pdf');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Product added');
    expect(posted(calls)[0].body).toMatchObject({
      priceType: 'leadMagnet',
      downloadUrl: 'https://clay.example/glaze-guide.pdf',
    });
  });

  it('a malformed download address left behind on another price type does not block the save', async () => {
    const calls = mockFetch({ 'GET /api/admin/loyalty-program': ACTIVE, 'POST /api/admin/products': SAVED });
    await renderDrawer();
    type('Name', 'Kiln time');
    fireEvent.click(screen.getByRole('radio', { name: 'Lead magnet' }));
    type('Download address', 'not a link');
    fireEvent.click(screen.getByRole('radio', { name: 'One-time' }));
    type('Amount', '20');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Product added');
    expect(posted(calls)[0].body).toMatchObject({ priceType: 'oneTime', amount: 2000 });
  });

  it('points without an active programme: the toggle shows the rule message and nothing is sent', async () => {
    const calls = mockFetch({ 'GET /api/admin/loyalty-program': DISABLED });
    await renderDrawer();
    type('Name', 'Kit');
    type('Amount', '25');
    fireEvent.click(screen.getByRole('switch', { name: 'Earn loyalty points' }));
    expect(
      await screen.findByText('You need to set up a loyalty program before enabling this feature.'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posted(calls)).toHaveLength(0);
  });

  it('points with an active programme need a reward amount greater than 1', async () => {
    const calls = mockFetch({ 'GET /api/admin/loyalty-program': ACTIVE, 'POST /api/admin/products': SAVED });
    await renderDrawer();
    type('Name', 'Kit');
    type('Amount', '25');
    fireEvent.click(screen.getByRole('switch', { name: 'Earn loyalty points' }));
    type('Reward amount', '1');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Reward amount must be a whole number greater than 1.'),
    ).toBeInTheDocument();
    expect(posted(calls)).toHaveLength(0);
    type('Reward amount', '250');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Product added');
    expect(posted(calls)[0].body).toMatchObject({ earnPoints: true, rewardAmount: 250 });
  });

  it('a refused save says "Error adding product" and shows the server message on its field', async () => {
    const message = 'You need to set up a loyalty program before enabling this feature.';
    mockFetch({
      'GET /api/admin/loyalty-program': ACTIVE,
      'POST /api/admin/products': errorBody(400, message, { earnPoints: message }),
    });
    const close = await renderDrawer();
    type('Name', 'Kit');
    type('Amount', '25');
    fireEvent.click(screen.getByRole('switch', { name: 'Earn loyalty points' }));
    type('Reward amount', '250');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Error adding product')).toBeInTheDocument();
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(close).not.toHaveBeenCalled();
  });
});

describe('ProductDrawer, what it grants (issue 24)', () => {
  const COURSES = okBody<'/api/admin/activities', 'get'>({
    activities: [courseSummary({ activity_id: '3f1b7a52-9a0e-4c1e-9d1c-1b2a3c4d5e6f', name: 'Wheel throwing' })],
    totalCount: 1,
    currentPage: 1,
    itemsPerPage: 10000,
  });
  const grantChoices = () =>
    screen.getAllByRole('radio').filter((r) => r.closest('#grant')).map((r) => r.closest('label')?.textContent);

  it('offers a pack or a gift card on a one-time product, a membership on a subscription, and each field only when it applies', async () => {
    mockFetch({ 'GET /api/admin/loyalty-program': ACTIVE, 'GET /api/admin/activities': COURSES });
    await renderDrawer();
    expect(screen.getByRole('region', { name: 'What it grants' })).toBeInTheDocument();
    expect(grantChoices()).toEqual(['Nothing', 'Class pack', 'Gift card']);
    expect(screen.queryByLabelText('Credits')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Courses')).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('radio', { name: 'Class pack' }));
    expect(screen.getByLabelText('Credits')).toBeInTheDocument();
    expect(screen.getByLabelText('Expires after')).toBeInTheDocument();
    expect(screen.getByLabelText('Courses')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('radio', { name: 'Gift card' }));
    expect(screen.queryByLabelText('Credits')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Courses')).not.toBeInTheDocument();
    expect(screen.getByText('Its value is the price; the buyer names the recipient at the store.')).toBeInTheDocument();

    // A subscription: the gift card no longer fits and is dropped; a membership is offered.
    fireEvent.click(screen.getByRole('radio', { name: 'Subscription' }));
    expect(grantChoices()).toEqual(['Nothing', 'Membership']);
    expect(screen.getByRole('radio', { name: 'Nothing' })).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: 'Membership' }));
    expect(screen.getByLabelText('Bookings per billing period')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('switch', { name: 'Unlimited bookings' }));
    expect(screen.queryByLabelText('Bookings per billing period')).not.toBeInTheDocument();
  });

  it('sends a pack with its credits, validity and courses; a missing credit count is refused first', async () => {
    const calls = mockFetch({
      'GET /api/admin/loyalty-program': ACTIVE,
      'GET /api/admin/activities': COURSES,
      'POST /api/admin/products': SAVED,
    });
    await renderDrawer();
    type('Name', 'Ten classes');
    type('Amount', '150');
    fireEvent.click(screen.getByRole('radio', { name: 'Class pack' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(PRODUCT_MESSAGES.packCredits)).toBeInTheDocument();
    expect(posted(calls)).toHaveLength(0);
    type('Credits', '10');
    type('Expires after', '6');
    await pickOption('Expiry unit', 'months');
    await pickOption('Courses', 'Wheel throwing');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Product added');
    expect(posted(calls)[0].body).toMatchObject({
      priceType: 'oneTime',
      amount: 15000,
      grant: 'pack',
      packCredits: 10,
      packExpiresAfterQuantity: 6,
      packExpiresAfterUnit: 'months',
      coversActivityIds: ['3f1b7a52-9a0e-4c1e-9d1c-1b2a3c4d5e6f'],
      coversCategoryIds: [],
    });
    expect(posted(calls)[0].body).not.toHaveProperty('membershipBookings');
  });

  it('sends an unlimited membership without a booking count', async () => {
    const calls = mockFetch({
      'GET /api/admin/loyalty-program': ACTIVE,
      'GET /api/admin/activities': COURSES,
      'POST /api/admin/products': SAVED,
    });
    await renderDrawer();
    type('Name', 'Unlimited');
    fireEvent.click(screen.getByRole('radio', { name: 'Subscription' }));
    type('Amount', '99');
    fireEvent.click(screen.getByRole('radio', { name: 'Membership' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Unlimited bookings' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Product added');
    const body = posted(calls)[0].body as Record<string, unknown>;
    expect(body).toMatchObject({ priceType: 'subscription', grant: 'membership', membershipUnlimited: true });
    expect(body).not.toHaveProperty('membershipBookings');
    expect(body).not.toHaveProperty('packCredits');
  });
});

describe('ProductDrawer, edit', () => {
  it('loads the product into the form and saves the new price with PUT', async () => {
    const calls = mockFetch({
      'GET /api/admin/loyalty-program': ACTIVE,
      'GET /api/admin/products/p1': okBody<'/api/admin/products/{product_id}', 'get'>(MEMBERSHIP),
      'PUT /api/admin/products/p1': okBody<'/api/admin/products/{product_id}', 'put'>(MEMBERSHIP),
    });
    const close = await renderDrawer({ product_id: 'p1' });
    expect(screen.getByRole('heading', { name: 'Edit Product' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Studio membership');
    expect(screen.getByLabelText('Amount')).toHaveValue('49.00');
    expect(screen.getByRole('radio', { name: 'Subscription' })).toBeChecked();
    expect(screen.getByRole('img', { name: 'Product image 1' })).toBeInTheDocument();
    type('Amount', '55');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Product added');
    expect(posted(calls, 'PUT')[0].body).toMatchObject({
      productName: 'Studio membership',
      amount: 5500,
      priceType: 'subscription',
      renewalIntervalUnits: 'months',
      renewalIntervalQuantity: 1,
      status: 'published',
    });
    expect(close).toHaveBeenCalled();
  });

  it('after a save the list behind the drawer and the product read again and show the change', async () => {
    let saved = false;
    const listed = () =>
      okBody<'/api/admin/products', 'get'>({
        products: [{ ...productSummaryOf(MEMBERSHIP), unit_price: saved ? 5500 : 4900 }],
        totalCount: 1,
        currentPage: 1,
        itemsPerPage: 20,
      });
    const calls = mockFetch({
      'GET /api/admin/loyalty-program': ACTIVE,
      'GET /api/admin/products': listed,
      'GET /api/admin/products/p1': okBody<'/api/admin/products/{product_id}', 'get'>(MEMBERSHIP),
      'PUT /api/admin/products/p1': () => {
        saved = true;
        return okBody<'/api/admin/products/{product_id}', 'put'>(MEMBERSHIP);
      },
    });
    /** The shell's Products page, reduced to what it shows of each row: its price in cents. */
    function ProductsBehind() {
      const list = useQuery(productQueries.list({ page: 1, limit: 20 }));
      return (
        <ul aria-label="Products behind">
          {list.data?.products.map((p) => (
            <li key={p.product_id}>{`${p.name} ${p.unit_price}`}</li>
          ))}
        </ul>
      );
    }
    renderWithProviders(
      <>
        <ProductsBehind />
        <ProductDrawer data={{ product_id: 'p1' }} close={jest.fn()} />
      </>,
    );
    expect(await screen.findByText('Studio membership 4900')).toBeInTheDocument();
    await screen.findByRole('button', { name: 'Save' }, { timeout: 5000 });
    const detailReads = () =>
      calls.filter((c) => c.method === 'GET' && c.url === '/api/admin/products/p1').length;
    const before = detailReads();
    type('Amount', '55');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Studio membership 5500')).toBeInTheDocument();
    await waitFor(() => expect(detailReads()).toBeGreaterThan(before));
  });

  it('Share opens the share drawer for this product', async () => {
    mockFetch({
      'GET /api/admin/loyalty-program': ACTIVE,
      'GET /api/admin/products/p1': okBody<'/api/admin/products/{product_id}', 'get'>(MEMBERSHIP),
    });
    await renderDrawer({ product_id: 'p1' });
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(screen.getByRole('status', { name: 'open drawer' }).textContent).toBe(
      'share {"mode":"product","product_id":"p1"}',
    );
  });

  it('a failed load shows the error with Retry', async () => {
    let fail = true;
    mockFetch({
      'GET /api/admin/loyalty-program': ACTIVE,
      'GET /api/admin/products/p1': () =>
        fail
          ? errorBody(500, 'Something went wrong on our side')
          : okBody<'/api/admin/products/{product_id}', 'get'>(MEMBERSHIP),
    });
    renderWithProviders(<ProductDrawer data={{ product_id: 'p1' }} close={jest.fn()} />);
    expect(await screen.findByText('Could not load this product', {}, { timeout: 5000 })).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByRole('heading', { name: 'Edit Product' }, { timeout: 5000 }),
    ).toBeInTheDocument();
  });
});
