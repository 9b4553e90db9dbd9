/* The checkout's quote as the buyer sees it: only the newest quote asked is shown. */
import { fireEvent, screen, waitFor } from '@testing-library/dom';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { course, session } from '../testing/fixtures';
import { mockStore, type StoreReply } from '../testing/store-fetch';
import { CheckoutPage } from './checkout';

const base = '/s/demo-studio';

const quote = (party: number) => ({
  lines: [],
  subtotal_cents: 6500 * party,
  discount_cents: 0,
  discount_code: null,
  points_redeemed: 0,
  points_cents: 0,
  total_cents: 6500 * party,
  covered_by: null,
  wallet_money: [],
  due_cents: 6500 * party,
  seats_left: 3,
});

it('an older quote answering after a newer one does not replace the newer total', async () => {
  document.body.innerHTML = '<div id="app"></div>';
  act(() =>
    render(
      <CheckoutPage
        data={{ store_name: 'Demo Studio', course: course(), session: session({ seats_left: 3 }) }}
        base={base}
      />,
      document.getElementById('app')!,
    ),
  );
  // Each quote answers when the test says so.
  const pending: ((reply: StoreReply) => void)[] = [];
  const calls = mockStore(() => new Promise<StoreReply>((resolve) => pending.push(resolve)));
  const seats = screen.getByRole('combobox', { name: 'Seats' });
  await act(async () => {
    fireEvent.change(seats, { target: { value: '2' } });
  });
  await act(async () => {
    fireEvent.change(seats, { target: { value: '3' } });
  });
  expect(calls.map((c) => (c.body as { party_size: number }).party_size)).toEqual([2, 3]);

  await act(async () => pending[1]({ status: 200, body: quote(3) }));
  await waitFor(() => expect(screen.getByText('$195.00')).toBeInTheDocument());
  await act(async () => pending[0]({ status: 200, body: quote(2) }));
  // The 2-seat answer came last but was asked first: the 3-seat total stays.
  await act(async () => {
    for (let turn = 0; turn < 10; turn++) await Promise.resolve();
  });
  expect(screen.getByText('$195.00')).toBeInTheDocument();
  expect(screen.queryByText('$130.00')).toBeNull();
});
