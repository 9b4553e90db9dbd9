import { fireEvent, screen, waitFor } from '@testing-library/react';
import { LOYALTY_MESSAGES } from '@studio/contracts';
import { TEST_SESSION, errorBody, mockFetch, okBody, renderWithProviders } from '@studio/ui/testing';
import { LoyaltyPage } from './loyalty.page';

const PROGRAM = 'GET /api/admin/loyalty-program';
const SAVE = 'PUT /api/admin/loyalty-program';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

describe('Loyalty settings page', () => {
  it('shows the rule and the status, and the owner enables the program', async () => {
    let status: 'active' | 'disabled' = 'disabled';
    const calls = mockFetch({
      [PROGRAM]: () => okBody<'/api/admin/loyalty-program', 'get'>({ status, unit: 'points' }),
      [SAVE]: (call) => {
        status = (call.body as { status: typeof status }).status;
        return okBody<'/api/admin/loyalty-program', 'put'>({ status, unit: 'points' });
      },
    });
    renderWithProviders(<LoyaltyPage />);
    expect(await screen.findByText('100 points = $1.00')).toBeInTheDocument();
    expect(screen.getByText('Disabled')).toBeInTheDocument();
    const toggle = screen.getByRole('switch', { name: 'Loyalty program' });
    expect(toggle).not.toBeChecked();

    fireEvent.click(toggle);
    expect(await screen.findByText(LOYALTY_MESSAGES.enabled)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ status: 'active' }]);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Loyalty program' })).toBeChecked());
    expect(screen.getByText('Active')).toBeInTheDocument();
  });

  it('a refused save says so and the switch shows the saved status again', async () => {
    mockFetch({
      [PROGRAM]: okBody<'/api/admin/loyalty-program', 'get'>({ status: 'active', unit: 'points' }),
      [SAVE]: errorBody(500, 'Internal server error'),
    });
    renderWithProviders(<LoyaltyPage />);
    const toggle = await screen.findByRole('switch', { name: 'Loyalty program' });
    expect(toggle).toBeChecked();
    fireEvent.click(toggle);
    expect(await screen.findByText(LOYALTY_MESSAGES.saveFailed)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Loyalty program' })).toBeChecked());
  });

  it('a failed load shows the error with Retry, not a disabled program', async () => {
    let fail = true;
    mockFetch({
      [PROGRAM]: () =>
        fail
          ? errorBody(500, 'Internal server error')
          : okBody<'/api/admin/loyalty-program', 'get'>({ status: 'active', unit: 'points' }),
    });
    renderWithProviders(<LoyaltyPage />);
    expect(await screen.findByText(LOYALTY_MESSAGES.loadFailed, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: /Retry/ }));
    expect(await screen.findByRole('switch', { name: 'Loyalty program' })).toBeChecked();
  });

  it('staff see the program but cannot switch it', async () => {
    mockFetch({
      [PROGRAM]: okBody<'/api/admin/loyalty-program', 'get'>({ status: 'active', unit: 'points' }),
    });
    renderWithProviders(<LoyaltyPage />, { ...TEST_SESSION, user: { ...TEST_SESSION.user, role: 'staff' } });
    expect(await screen.findByRole('switch', { name: 'Loyalty program' })).toBeDisabled();
    expect(screen.getByText('Only the studio owner can turn the program on or off.')).toBeInTheDocument();
  });
});
