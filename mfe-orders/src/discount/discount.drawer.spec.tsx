import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '@studio/ui/testing';
import { DiscountDrawer } from './discount.drawer';

const COURSES = [{ activity_id: 'c1', name: 'Wheel throwing' }];

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

async function renderDrawer(data = {}, close = jest.fn()) {
  renderWithProviders(<DiscountDrawer data={data} close={close} />);
  await screen.findByRole('button', { name: 'Save' }, { timeout: 3000 });
  return close;
}

function type(label: string, value: string) {
  fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value } });
}

const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('DiscountDrawer', () => {
  it('has the General, Pricing and Settings sections', async () => {
    mockFetch({ 'GET /api/admin/activities': { body: COURSES } });
    await renderDrawer();
    expect(screen.getByRole('heading', { name: 'New Discount' })).toBeInTheDocument();
    for (const name of ['General', 'Pricing', 'Settings'])
      expect(screen.getByRole('region', { name })).toBeInTheDocument();
  });

  it('shows the required-field messages and sends nothing', async () => {
    const calls = mockFetch({ 'GET /api/admin/activities': { body: COURSES } });
    await renderDrawer();
    save();
    expect(await screen.findByText('A label is required')).toBeInTheDocument();
    expect(screen.getByText('A code is required')).toBeInTheDocument();
    expect(screen.getByText('A value is required')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('checks the code length, the dollar value and the percentage', async () => {
    mockFetch({ 'GET /api/admin/activities': { body: COURSES } });
    await renderDrawer();
    type('Label', 'Spring');
    type('Code', 'ab');
    type('Value', '10.555');
    save();
    expect(await screen.findByText('Code must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Amount must be greater than 0 with at most 2 decimals')).toBeInTheDocument();

    type('Value', '0');
    save();
    expect(
      await screen.findByText('Amount must be greater than 0 with at most 2 decimals'),
    ).toBeInTheDocument();

    fireEvent.click(screen.getByRole('radio', { name: 'Percentage' }));
    type('Value', '12.5');
    save();
    expect(await screen.findByText('Percentage must be a whole number from 1 to 100')).toBeInTheDocument();
    type('Value', '101');
    save();
    expect(await screen.findByText('Percentage must be a whole number from 1 to 100')).toBeInTheDocument();
  });

  it('requires a course when limited to one, and a date when a start or end is set', async () => {
    mockFetch({ 'GET /api/admin/activities': { body: COURSES } });
    await renderDrawer();
    type('Label', 'Spring');
    type('Code', 'SPRING');
    type('Value', '5');
    fireEvent.click(screen.getByRole('switch', { name: 'Limit to one course' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Set start date' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Set end date' }));
    save();
    expect(
      await screen.findByText('A course is required when the discount is limited to a course'),
    ).toBeInTheDocument();
    expect(screen.getByText('A start date is required')).toBeInTheDocument();
    expect(screen.getByText('An end date is required')).toBeInTheDocument();
  });

  it("posts a dollar value in cents, toasts 'Discount added' and closes", async () => {
    const calls = mockFetch({
      'GET /api/admin/activities': { body: COURSES },
      'POST /api/admin/promo-code': { status: 201, body: { id: 'd1' } },
    });
    const close = await renderDrawer();
    type('Label', 'Spring sale');
    type('Code', 'SPRING');
    type('Value', '12.5');
    fireEvent.click(screen.getByRole('switch', { name: 'Limit to one course' }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Course' }));
    await waitFor(() => expect(document.querySelector('.ant-select-dropdown')).not.toBeNull());
    fireEvent.click(
      within(document.querySelector('.ant-select-dropdown') as HTMLElement).getByText('Wheel throwing'),
    );
    fireEvent.click(screen.getByRole('radio', { name: 'To each item' }));
    save();
    expect(await screen.findByText('Discount added')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      label: 'Spring sale',
      code: 'SPRING',
      type: 'dollar',
      value: 1250,
      activity_id: 'c1',
      apply_logic: 'each',
      start_date: null,
      expiration_date: null,
    });
    expect(close).toHaveBeenCalled();
  });

  it('edits an existing discount: dates round-trip through the organization zone and PUT', async () => {
    const calls = mockFetch({
      'GET /api/admin/activities': { body: COURSES },
      'GET /api/admin/promo-code/d1': {
        body: {
          id: 'd1',
          label: 'Summer',
          code: 'SUMMER',
          type: 'percentage',
          value: 15,
          activity_id: null,
          apply_logic: 'once',
          // 12:00 and 23:00 in America/New_York (the test organization's zone).
          start_date: '2026-06-01T16:00:00.000Z',
          expiration_date: '2026-06-30T03:00:00.000Z',
        },
      },
      'PUT /api/admin/promo-code/d1': { body: {} },
    });
    await renderDrawer({ promo_code_id: 'd1' });
    expect(screen.getByRole('heading', { name: 'Edit Discount' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Value' })).toHaveValue('15');
    expect(screen.getByText('12:00 PM')).toBeInTheDocument();
    expect(screen.getByText('11:00 PM')).toBeInTheDocument();
    save();
    await screen.findByText('Discount added');
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      type: 'percentage',
      value: 15,
      start_date: '2026-06-01T16:00:00.000Z',
      expiration_date: '2026-06-30T03:00:00.000Z',
    });
  });

  it("toasts 'Error adding discount' and shows the server's field messages", async () => {
    mockFetch({
      'GET /api/admin/activities': { body: COURSES },
      'POST /api/admin/promo-code': {
        status: 409,
        body: { statusCode: 409, message: 'Conflict', errors: { code: 'This code is already in use' } },
      },
    });
    const close = await renderDrawer();
    type('Label', 'Spring');
    type('Code', 'SPRING');
    type('Value', '5');
    save();
    expect(await screen.findByText('Error adding discount')).toBeInTheDocument();
    expect(screen.getByText('This code is already in use')).toBeInTheDocument();
    expect(close).not.toHaveBeenCalled();
  });
});
