import { fireEvent, screen, waitFor } from '@testing-library/react';
import { BILLING_MESSAGES } from '@studio/contracts';
import { errorBody, mockFetch, okBody, renderWithProviders } from '@studio/ui/testing';
import { BillingPage } from './billing.page';

const METHODS = 'GET /api/admin/payment-methods';
const SETUP = 'POST /api/admin/payment-methods/setup';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

describe('Billing settings page', () => {
  it('lists the payment methods on file', async () => {
    mockFetch({
      [METHODS]: okBody<'/api/admin/payment-methods', 'get'>({
        provider: 'stripe',
        payment_methods: [{ id: 'pm_1', brand: 'visa', last4: '4242', exp_month: 3, exp_year: 2029 }],
      }),
    });
    renderWithProviders(<BillingPage />);
    expect(await screen.findByText('VISA •••• 4242')).toBeInTheDocument();
    expect(screen.getByText('03/2029')).toBeInTheDocument();
    expect(screen.queryByText(BILLING_MESSAGES.demo)).not.toBeInTheDocument();
  });

  it('says when none is on file, and Add payment method opens the setup page', async () => {
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    const calls = mockFetch({
      [METHODS]: okBody<'/api/admin/payment-methods', 'get'>({ provider: 'demo', payment_methods: [] }),
      [SETUP]: okBody<'/api/admin/payment-methods/setup', 'post'>({
        url: 'http://studio.test/api/pay/demo/dcs_1',
      }),
    });
    renderWithProviders(<BillingPage />);
    expect(await screen.findByText(BILLING_MESSAGES.none)).toBeInTheDocument();
    expect(screen.getByText(BILLING_MESSAGES.demo)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add payment method' }));
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith(
        'http://studio.test/api/pay/demo/dcs_1',
        '_blank',
        'noopener,noreferrer',
      ),
    );
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('a refused setup says so', async () => {
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    mockFetch({
      [METHODS]: okBody<'/api/admin/payment-methods', 'get'>({ provider: 'demo', payment_methods: [] }),
      [SETUP]: errorBody(502, 'Bad gateway'),
    });
    renderWithProviders(<BillingPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add payment method' }));
    expect(await screen.findByText(BILLING_MESSAGES.setupFailed)).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
  });

  it('a failed load shows the error with Retry, not an empty list', async () => {
    let fail = true;
    mockFetch({
      [METHODS]: () =>
        fail
          ? errorBody(500, 'Internal server error')
          : okBody<'/api/admin/payment-methods', 'get'>({ provider: 'demo', payment_methods: [] }),
    });
    renderWithProviders(<BillingPage />);
    expect(await screen.findByText(BILLING_MESSAGES.loadFailed, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByText(BILLING_MESSAGES.none)).not.toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: /Retry/ }));
    expect(await screen.findByText(BILLING_MESSAGES.none, {}, { timeout: 5000 })).toBeInTheDocument();
  });
});
