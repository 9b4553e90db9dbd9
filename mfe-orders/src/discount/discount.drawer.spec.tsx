import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DISCOUNT_MESSAGES as M } from '@studio/contracts';
import { courseSummary, errorBody, mockFetch, okBody, renderWithProviders } from '@studio/ui/testing';
import type { PromoCode } from '../api/discounts';
import { DiscountDrawer } from './discount.drawer';

const WHEEL = '3f5b8a2e-1c4d-4e6f-8a9b-0c1d2e3f4a5b';
const GLASS = '4a6c9b3f-2d5e-4f70-9bac-1d2e3f4a5b6c';
const ID = '5b7dac40-3e6f-4081-8cbd-2e3f4a5b6c7d';

/** GET /api/admin/activities as the API answers it: an invented field fails the typecheck. */
const COURSES = okBody<'/api/admin/activities', 'get'>({
  activities: [
    courseSummary({ activity_id: WHEEL, name: 'Wheel throwing' }),
    courseSummary({ activity_id: GLASS, name: 'Glassblowing' }),
  ],
  totalCount: 2,
  currentPage: 1,
  itemsPerPage: 1000,
});

/** A discount code as GET /api/admin/promo-code/{id} answers it. */
function promoCode(overrides: Partial<PromoCode> = {}): PromoCode {
  return {
    id: ID,
    label: 'Wheel week',
    code: 'WHEEL15',
    type: 'dollar',
    value: 1500,
    activity_id: WHEEL,
    apply_logic: 'each',
    // Nov 24 2026, 9 AM and 11 PM in New York (EST, UTC-5).
    start_date: '2026-11-24T14:00:00.000Z',
    expiration_date: '2026-11-25T04:00:00.000Z',
    times_used: 3,
    status: 'scheduled',
    created_at: '2026-11-01T12:00:00.000Z',
    updated_at: '2026-11-01T12:00:00.000Z',
    ...overrides,
  };
}

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

async function renderDrawer(data = {}, close = jest.fn()) {
  renderWithProviders(<DiscountDrawer data={data} close={close} />);
  await screen.findByRole('button', { name: 'Save' }, { timeout: 3000 });
  return close;
}

const type = (name: string, value: string) =>
  fireEvent.change(screen.getByRole('textbox', { name }), { target: { value } });
const submit = (name = 'New Discount') =>
  act(async () => fireEvent.submit(screen.getByRole('form', { name })));

async function pick(combobox: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: combobox }));
  const choices = await screen.findAllByTitle(option);
  fireEvent.click(choices[choices.length - 1]);
}

describe('DiscountDrawer: new', () => {
  it('has the General, Pricing and Settings sections', async () => {
    mockFetch({ 'GET /api/admin/activities': COURSES });
    await renderDrawer();
    expect(screen.getByRole('heading', { name: 'New Discount' })).toBeInTheDocument();
    for (const name of ['General', 'Pricing', 'Settings'])
      expect(screen.getByRole('region', { name })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('creates a percentage code limited to a course: POST with the value and course, toast, close', async () => {
    const calls = mockFetch({
      'GET /api/admin/activities': COURSES,
      'POST /api/admin/promo-code': okBody<'/api/admin/promo-code', 'post'>(
        promoCode({ type: 'percentage', value: 20 }),
      ),
    });
    const close = await renderDrawer();
    type('Label', 'Wheel week');
    type('Code', 'wheel20');
    fireEvent.click(screen.getByRole('radio', { name: 'Percentage' }));
    type('Value', '20');
    fireEvent.click(screen.getByRole('switch', { name: 'Limit to one course' }));
    await pick('Course', 'Wheel throwing');
    fireEvent.click(screen.getByRole('radio', { name: 'To each item' }));
    await submit();
    await waitFor(() => expect(close).toHaveBeenCalled());
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({
      label: 'Wheel week',
      code: 'wheel20',
      type: 'percentage',
      value: 20,
      activity_id: WHEEL,
      apply_logic: 'each',
      start_date: null,
      expiration_date: null,
    });
    expect(await screen.findByText(M.saved)).toBeInTheDocument();
  });

  it('sends a dollar value in cents', async () => {
    const calls = mockFetch({
      'GET /api/admin/activities': COURSES,
      'POST /api/admin/promo-code': okBody<'/api/admin/promo-code', 'post'>(promoCode()),
    });
    const close = await renderDrawer();
    type('Label', 'Ten off');
    type('Code', 'TENOFF');
    type('Value', '12.50');
    await submit();
    await waitFor(() => expect(close).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      type: 'dollar',
      value: 1250,
      activity_id: null,
    });
  });

  it('shows every rule on Save and sends nothing', async () => {
    const calls = mockFetch({ 'GET /api/admin/activities': COURSES });
    await renderDrawer();
    fireEvent.click(screen.getByRole('switch', { name: 'Limit to one course' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Set end date' }));
    await submit();
    for (const message of [
      M.labelRequired,
      M.codeRequired,
      M.valueRequired,
      M.courseRequired,
      M.endDateRequired,
    ])
      expect(await screen.findByText(message)).toBeInTheDocument();
    expect(calls.filter((c) => c.url.includes('promo-code'))).toHaveLength(0);
  });

  it.each([
    ['dollar', '10.005', M.dollarInvalid],
    ['dollar', '0', M.dollarInvalid],
    ['percentage', '101', M.percentageInvalid],
    ['percentage', '12.5', M.percentageInvalid],
  ])('refuses a %s value of %s', async (kind, value, message) => {
    mockFetch({ 'GET /api/admin/activities': COURSES });
    await renderDrawer();
    if (kind === 'percentage') fireEvent.click(screen.getByRole('radio', { name: 'Percentage' }));
    type('Value', value);
    fireEvent.blur(screen.getByRole('textbox', { name: 'Value' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('a taken code: the error toast, the form error and the server message on the code', async () => {
    mockFetch({
      'GET /api/admin/activities': COURSES,
      'POST /api/admin/promo-code': errorBody(409, M.codeTaken, { code: M.codeTaken }),
    });
    const close = await renderDrawer();
    type('Label', 'Spring');
    type('Code', 'spring');
    type('Value', '5');
    await submit();
    expect(await screen.findByText(M.saveFailed)).toBeInTheDocument();
    expect(screen.getByText(M.formError)).toBeInTheDocument();
    expect(screen.getByText(M.codeTaken)).toBeInTheDocument();
    expect(close).not.toHaveBeenCalled();
  });

  it('the hours run from 1:00 AM to 11:00 PM, 12:00 PM by default', async () => {
    mockFetch({ 'GET /api/admin/activities': COURSES });
    await renderDrawer();
    fireEvent.click(screen.getByRole('switch', { name: 'Set start date' }));
    const time = screen.getByRole('combobox', { name: 'Start date time' });
    expect(time.closest('.ant-select')).toHaveTextContent('12:00 PM');
    fireEvent.mouseDown(time);
    expect(await screen.findByTitle('1:00 AM')).toBeInTheDocument();
    expect(screen.queryByTitle('12:00 AM')).not.toBeInTheDocument();
  });

  it('a failed course list (a picker) is only logged: the picker stays empty, the drawer works', async () => {
    mockFetch({ 'GET /api/admin/activities': errorBody(500, 'Something went wrong on our side') });
    await renderDrawer();
    await waitFor(() =>
      expect(console.error).toHaveBeenCalledWith('Could not load courses', expect.anything()),
    );
    fireEvent.click(screen.getByRole('switch', { name: 'Limit to one course' }));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Course' }));
    expect(screen.queryByText('Wheel throwing')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });
});

describe('DiscountDrawer: edit', () => {
  it('loads the code and shows its values, dates and hours in the organization zone', async () => {
    mockFetch({
      'GET /api/admin/activities': COURSES,
      [`GET /api/admin/promo-code/${ID}`]: okBody<'/api/admin/promo-code/{id}', 'get'>(promoCode()),
    });
    await renderDrawer({ id: ID });
    expect(screen.getByRole('heading', { name: 'Edit Discount' })).toBeInTheDocument();
    expect(screen.getByText('Scheduled')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Code' })).toHaveValue('WHEEL15');
    expect(screen.getByRole('textbox', { name: 'Value' })).toHaveValue('15.00');
    expect(screen.getByRole('switch', { name: 'Limit to one course' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'To each item' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Start date' })).toHaveValue('Tue, Nov 24, 2026');
    expect(
      screen.getByRole('combobox', { name: 'Start date time' }).closest('.ant-select'),
    ).toHaveTextContent('9:00 AM');
    // 04:00 UTC on Nov 25 is still Nov 24 in New York.
    expect(screen.getByRole('textbox', { name: 'End date' })).toHaveValue('Tue, Nov 24, 2026');
    expect(screen.getByRole('combobox', { name: 'End date time' }).closest('.ant-select')).toHaveTextContent(
      '11:00 PM',
    );
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Course' }).closest('.ant-select')).toHaveTextContent(
        'Wheel throwing',
      ),
    );
  });

  it('saves an edit with PUT, keeping the window instants, then closes with the toast', async () => {
    const calls = mockFetch({
      'GET /api/admin/activities': COURSES,
      [`GET /api/admin/promo-code/${ID}`]: okBody<'/api/admin/promo-code/{id}', 'get'>(promoCode()),
      [`PUT /api/admin/promo-code/${ID}`]: okBody<'/api/admin/promo-code/{id}', 'put'>(
        promoCode({ value: 2000 }),
      ),
    });
    const close = await renderDrawer({ id: ID });
    type('Value', '20');
    await pick('Start date time', '1:00 AM');
    await submit('Edit Discount');
    await waitFor(() => expect(close).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      label: 'Wheel week',
      code: 'WHEEL15',
      type: 'dollar',
      value: 2000,
      activity_id: WHEEL,
      apply_logic: 'each',
      // 1 AM in New York (EST) is 06:00 UTC; the end is sent back as it was read.
      start_date: '2026-11-24T06:00:00.000Z',
      expiration_date: '2026-11-25T04:00:00.000Z',
    });
    expect(await screen.findByText(M.saved)).toBeInTheDocument();
  });

  it('a failed load shows the error with Retry, and Retry reads it again', async () => {
    let fail = true;
    mockFetch({
      'GET /api/admin/activities': COURSES,
      [`GET /api/admin/promo-code/${ID}`]: () =>
        fail
          ? errorBody(500, 'Something went wrong on our side')
          : okBody<'/api/admin/promo-code/{id}', 'get'>(promoCode()),
    });
    renderWithProviders(<DiscountDrawer data={{ id: ID }} close={jest.fn()} />);
    const retry = await screen.findByRole('button', { name: 'Retry' }, { timeout: 3000 });
    expect(screen.getByText('Could not load this discount')).toBeInTheDocument();
    fail = false;
    fireEvent.click(retry);
    expect(await screen.findByRole('textbox', { name: 'Code' }, { timeout: 3000 })).toHaveValue('WHEEL15');
  });

  it("another organization's code (404) shows the error, not an empty form", async () => {
    mockFetch({
      'GET /api/admin/activities': COURSES,
      [`GET /api/admin/promo-code/${ID}`]: errorBody(404, M.notFound),
    });
    renderWithProviders(<DiscountDrawer data={{ id: ID }} close={jest.fn()} />);
    const error = await screen.findByText('Could not load this discount', {}, { timeout: 3000 });
    expect(within(error.closest('div')!.parentElement!).queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Code' })).not.toBeInTheDocument();
  });
});
