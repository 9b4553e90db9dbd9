import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { WALLET_MESSAGES } from '@studio/contracts';
import { courseSummary, errorBody, mockFetch, okBody, renderWithProviders, TEST_SESSION } from '@studio/ui/testing';
import { StudentWallet } from './student-wallet';

type WalletAnswer = Parameters<typeof okBody<'/api/admin/student/{student_id}/wallet', 'get'>>[0];

/** What GET /api/admin/student/{student_id}/wallet answers: an invented field fails the typecheck. */
const WALLET: WalletAnswer = {
  holdings: [
    {
      holding_id: 'h1',
      kind: 'pack',
      label: '10-class pack',
      unit: 'credits',
      balance: 3,
      status: 'active',
      expires_at: '2026-09-01T03:59:00Z',
      product_id: null,
      order_id: 'o1',
      created_at: '2026-03-01T15:00:00Z',
      unlimited: false,
      covers_activity_ids: null,
      covers_category_ids: null,
    },
    {
      holding_id: 'h2',
      kind: 'gift_card',
      label: 'Gift card from Ana',
      unit: 'cents',
      balance: 2550,
      status: 'expired',
      expires_at: '2026-02-01T05:00:00Z',
      product_id: null,
      order_id: null,
      created_at: '2025-02-01T15:00:00Z',
      unlimited: false,
      covers_activity_ids: null,
      covers_category_ids: null,
    },
  ],
  entries: [
    {
      entry_id: 'e2',
      holding_id: 'h1',
      amount: -1,
      balance_after: 3,
      reason: 'use',
      note: null,
      order_id: null,
      enrollment_id: 'en1',
      appointment_id: null,
      actor: null,
      created_at: '2026-03-05T23:30:00Z',
    },
    {
      entry_id: 'e1',
      holding_id: 'h2',
      amount: 2550,
      balance_after: 2550,
      reason: 'grant',
      note: null,
      order_id: null,
      enrollment_id: null,
      appointment_id: null,
      actor: 'Olive Owner',
      created_at: '2025-02-01T15:00:00Z',
    },
  ],
};

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

describe('StudentWallet (issue 24)', () => {
  it('an unlimited membership reads Unlimited, and says the courses it covers by name', async () => {
    const membership = {
      ...WALLET.holdings[0],
      holding_id: 'h3',
      kind: 'membership' as const,
      label: 'Unlimited monthly',
      unit: 'bookings' as const,
      balance: 1_000_000,
      unlimited: true,
      covers_activity_ids: ['3f1b7a52-9a0e-4c1e-9d1c-1b2a3c4d5e6f'],
      covers_category_ids: [4],
    };
    mockFetch({
      'GET /api/admin/student/s1/wallet': okBody<'/api/admin/student/{student_id}/wallet', 'get'>({ holdings: [membership], entries: [] }),
      'GET /api/admin/activities': okBody<'/api/admin/activities', 'get'>({
        activities: [courseSummary({ activity_id: '3f1b7a52-9a0e-4c1e-9d1c-1b2a3c4d5e6f', name: 'Wheel throwing' })],
        totalCount: 1,
        currentPage: 1,
        itemsPerPage: 10000,
      }),
    });
    renderWithProviders(<StudentWallet studentId="s1" />);
    const list = await screen.findByRole('list', { name: 'Holdings' });
    await waitFor(() => expect(list).toHaveTextContent('Membership · Unlimited · Wheel throwing, Ceramics courses'));
    expect(list).not.toHaveTextContent('1,000,000');
  });

  it('lists what the student holds, with what is left and the expiry, and the ledger', async () => {
    mockFetch({ 'GET /api/admin/student/s1/wallet': okBody<'/api/admin/student/{student_id}/wallet', 'get'>(WALLET) });
    renderWithProviders(<StudentWallet studentId="s1" />);
    const holdings = within(await screen.findByRole('list', { name: 'Holdings' })).getAllByRole('listitem');
    expect(holdings[0]).toHaveTextContent('10-class pack');
    expect(holdings[0]).toHaveTextContent('Class pack · 3 credits left · All courses · expires');
    expect(holdings[1]).toHaveTextContent('Gift card · $25.50 left · expired');
    expect(within(holdings[1]).getByText('Expired')).toBeInTheDocument();
    // An expired holding is not adjusted.
    expect(within(holdings[1]).queryByRole('button')).not.toBeInTheDocument();
    const rows = within(screen.getByRole('list', { name: 'Wallet history' })).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('-1 credit · Used (10-class pack)');
    expect(rows[1]).toHaveTextContent('+$25.50 · Granted (Gift card from Ana) by Olive Owner');
  });

  it('says so when the student holds nothing', async () => {
    mockFetch({ 'GET /api/admin/student/s1/wallet': okBody<'/api/admin/student/{student_id}/wallet', 'get'>({ holdings: [], entries: [] }) });
    renderWithProviders(<StudentWallet studentId="s1" />);
    expect(await screen.findByText('Holds nothing yet')).toBeInTheDocument();
  });

  it('an owner adjusts a pack with a reason: the change is sent signed, the new balance shows', async () => {
    const after: WalletAnswer = {
      holdings: [{ ...WALLET.holdings[0], balance: 1 }, WALLET.holdings[1]],
      entries: [
        { ...WALLET.entries[0], entry_id: 'e3', amount: -2, balance_after: 1, reason: 'adjust', note: 'Taken on paper', actor: 'Olive Owner' },
        ...WALLET.entries,
      ],
    };
    const calls = mockFetch({
      'GET /api/admin/student/s1/wallet': okBody<'/api/admin/student/{student_id}/wallet', 'get'>(WALLET),
      'POST /api/admin/student/s1/wallet/h1/adjust': okBody<'/api/admin/student/{student_id}/wallet/{holding_id}/adjust', 'post'>(after),
    });
    renderWithProviders(<StudentWallet studentId="s1" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Adjust 10-class pack' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Change' }), { target: { value: '-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    // No reason: the contracts' message, nothing sent.
    expect(await screen.findByText(WALLET_MESSAGES.reasonRequired)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByRole('textbox', { name: 'Reason' }), { target: { value: 'Taken on paper' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(WALLET_MESSAGES.adjusted)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ amount: -2, reason: 'Taken on paper' });
    await waitFor(() => expect(screen.getByRole('list', { name: 'Holdings' })).toHaveTextContent('1 credit left'));
    expect(screen.getByRole('list', { name: 'Wallet history' })).toHaveTextContent('-2 credits · Adjusted by an admin (10-class pack): Taken on paper by Olive Owner');
  });

  it("shows the server's refusal (below zero) and keeps the dialog open", async () => {
    mockFetch({
      'GET /api/admin/student/s1/wallet': okBody<'/api/admin/student/{student_id}/wallet', 'get'>(WALLET),
      'POST /api/admin/student/s1/wallet/h1/adjust': errorBody(409, WALLET_MESSAGES.belowZero),
    });
    renderWithProviders(<StudentWallet studentId="s1" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Adjust 10-class pack' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Change' }), { target: { value: '-9' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Reason' }), { target: { value: 'Too many' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(WALLET_MESSAGES.belowZero)).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('a gift card is adjusted in dollars, sent as cents', async () => {
    const active = { ...WALLET, holdings: [{ ...WALLET.holdings[1], status: 'active' as const, expires_at: null }] };
    const calls = mockFetch({
      'GET /api/admin/student/s1/wallet': okBody<'/api/admin/student/{student_id}/wallet', 'get'>(active),
      'POST /api/admin/student/s1/wallet/h2/adjust': okBody<'/api/admin/student/{student_id}/wallet/{holding_id}/adjust', 'post'>(active),
    });
    renderWithProviders(<StudentWallet studentId="s1" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Adjust Gift card from Ana' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Change' }), { target: { value: '12.50' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Reason' }), { target: { value: 'Goodwill' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ amount: 1250, reason: 'Goodwill' }));
  });

  it('staff read the wallet but cannot adjust it', async () => {
    mockFetch({ 'GET /api/admin/student/s1/wallet': okBody<'/api/admin/student/{student_id}/wallet', 'get'>(WALLET) });
    renderWithProviders(<StudentWallet studentId="s1" />, { ...TEST_SESSION, user: { ...TEST_SESSION.user, role: 'staff' } });
    await screen.findByRole('list', { name: 'Holdings' });
    expect(screen.queryByRole('button', { name: /Adjust/ })).not.toBeInTheDocument();
  });
});
