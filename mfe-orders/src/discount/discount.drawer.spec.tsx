import { fireEvent, screen, waitFor } from '@testing-library/react';
import { courseSummary, errorBody, mockFetch, okBody, renderWithProviders } from '@studio/ui/testing';
import { DiscountDrawer } from './discount.drawer';

/** GET /api/admin/activities as the API answers it: an invented field fails the typecheck. */
const COURSES = okBody<'/api/admin/activities', 'get'>({
  activities: [courseSummary({ activity_id: 'c1', name: 'Wheel throwing' })],
  totalCount: 2,
  currentPage: 1,
  itemsPerPage: 1000,
});

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

async function renderDrawer(data = {}, close = jest.fn()) {
  renderWithProviders(<DiscountDrawer data={data} close={close} />);
  await screen.findByRole('button', { name: 'Save' }, { timeout: 3000 });
  return close;
}

describe('DiscountDrawer', () => {
  it('has the General, Pricing and Settings sections', async () => {
    mockFetch({ 'GET /api/admin/activities': COURSES });
    await renderDrawer();
    expect(screen.getByRole('heading', { name: 'New Discount' })).toBeInTheDocument();
    for (const name of ['General', 'Pricing', 'Settings'])
      expect(screen.getByRole('region', { name })).toBeInTheDocument();
  });

  it('says discount codes are not available yet, disables Save and never calls the promo-code API', async () => {
    const calls = mockFetch({ 'GET /api/admin/activities': COURSES });
    await renderDrawer();
    expect(screen.getByText('Discount codes are not available yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: 'Label' }), { target: { value: 'Spring' } });
    fireEvent.submit(screen.getByRole('form', { name: 'New Discount' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.filter((c) => c.url.includes('promo-code'))).toHaveLength(0);
    expect(screen.queryByText('Error adding discount')).not.toBeInTheDocument();
  });

  it('an existing discount is not loaded either: the drawer says so', async () => {
    const calls = mockFetch({ 'GET /api/admin/activities': COURSES });
    await renderDrawer({ promo_code_id: 'p1' });
    expect(screen.getByRole('heading', { name: 'Edit Discount' })).toBeInTheDocument();
    expect(screen.getByText('Discount codes are not available yet.')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.includes('promo-code'))).toHaveLength(0);
  });

  it('still shows the field rules as each field is left', async () => {
    mockFetch({ 'GET /api/admin/activities': COURSES });
    await renderDrawer();
    const code = screen.getByRole('textbox', { name: 'Code' });
    fireEvent.change(code, { target: { value: 'ab' } });
    fireEvent.blur(code);
    expect(await screen.findByText('Code must be at least 3 characters')).toBeInTheDocument();
  });

  it('offers the courses the API lists when limited to one course', async () => {
    mockFetch({ 'GET /api/admin/activities': COURSES });
    await renderDrawer();
    fireEvent.click(screen.getByRole('switch', { name: 'Limit to one course' }));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Course' }));
    expect(await screen.findByText('Wheel throwing')).toBeInTheDocument();
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
