import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  errorBody,
  mockFetch,
  noContent,
  okBody,
  renderWithProviders,
  TEST_SESSION,
  type MockAnswer,
  type OkBodyOf,
} from '@studio/ui/testing';
import { CREDIT_MESSAGES, REFUND_MESSAGES, SCHEDULING_MESSAGES } from '@studio/contracts';
import { RemoveStudentDialog } from './remove-student.dialog';

type Quote = OkBodyOf<'/api/admin/enrollment/{enrollment_id}/refund-quote', 'get'>;

/** Paid $45.00, nothing refunded; the Firm policy refunds half at this moment. */
const QUOTE: Quote = {
  order: { order_id: 'o1', order_number: 1042, status: 'paid', total: 4500, refunded_amount: 0 },
  refundable: 4500,
  suggested_amount: 2250,
  share: 0.5,
  policy: {
    id: 3,
    name: 'Firm',
    rule: 'Full refund up to 30 days before, 50% up to 5 days before, none after',
  },
  starts_at: '2026-12-10T18:00:00Z',
  has_payment_method: true,
  refusal: null,
  credit_refusal: null,
  wallet_paid_cents: 0,
  outcomes: { card: '$22.50 back to the card.', store_credit: '$22.50 as store credit.' },
  use: null,
};
/** A seat covered by a 5-class pack's credit. */
const USE: NonNullable<Quote['use']> = {
  holding_id: 'h1',
  kind: 'pack',
  label: '5-class pack',
  unit: 'credits',
  amount: 1,
  returned: false,
  returns: true,
  message: 'Your class credit is given back.',
};
const QUOTE_PATH = 'GET /api/admin/enrollment/en1/refund-quote';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

function renderDialog(
  quote: MockAnswer | (() => MockAnswer),
  remove: () => MockAnswer = noContent,
  session = TEST_SESSION,
) {
  const calls = mockFetch({ [QUOTE_PATH]: quote, 'DELETE /api/admin/enrollment/en1': remove });
  const onDone = jest.fn();
  renderWithProviders(
    <RemoveStudentDialog
      data={{ enrollment_id: 'en1', student_name: 'Ada Lovelace', onDone }}
      close={jest.fn()}
    />,
    session,
  );
  return { calls, onDone };
}

const removeButton = () => screen.getByRole('button', { name: 'Remove' });
const amount = () => screen.getByRole('textbox', { name: 'Refund amount' });

async function chooseReason(text: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Refund reason' }));
  const options = await screen.findAllByText(text);
  fireEvent.click(options[options.length - 1]);
}

describe('RemoveStudentDialog', () => {
  it("removes a student with no paid order with 'Student removed', or says 'Failed to remove student'", async () => {
    let status = 500;
    const { calls, onDone } = renderDialog(
      okBody<'/api/admin/enrollment/{enrollment_id}/refund-quote', 'get'>({
        ...QUOTE,
        order: null,
        refundable: 0,
        suggested_amount: 0,
      }),
      () => (status === 204 ? noContent() : errorBody(status, 'x')),
    );
    expect(screen.getByText(/Remove Ada Lovelace from this session/)).toBeInTheDocument();
    expect(await screen.findByText('No order to refund for this student.')).toBeInTheDocument();
    fireEvent.click(removeButton());
    expect(await screen.findByText(SCHEDULING_MESSAGES.removeFailed)).toBeInTheDocument();
    expect(onDone).not.toHaveBeenCalled();
    status = 204;
    fireEvent.click(removeButton());
    expect(await screen.findByText(SCHEDULING_MESSAGES.studentRemoved)).toBeInTheDocument();
    expect(onDone).toHaveBeenCalled();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.body)).toEqual([undefined, undefined]);
  });

  it("suggests the policy's amount, needs a reason, and removes with the refund in one call", async () => {
    const { calls, onDone } = renderDialog(
      okBody<'/api/admin/enrollment/{enrollment_id}/refund-quote', 'get'>(QUOTE),
    );
    expect(await screen.findByRole('checkbox', { name: /Refund order #1042/ })).toBeChecked();
    expect(screen.getByText(/Firm cancellation policy/)).toHaveTextContent('Suggested now: $22.50');
    expect(amount()).toHaveValue('22.50');
    fireEvent.click(removeButton());
    expect(await screen.findByText(REFUND_MESSAGES.selectReason)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    await chooseReason('Schedule conflict');
    await waitFor(() => expect(screen.queryByText(REFUND_MESSAGES.selectReason)).not.toBeInTheDocument());
    fireEvent.click(removeButton());
    expect(await screen.findByText(SCHEDULING_MESSAGES.studentRemoved)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')!.body).toEqual({
      refund: { amount: 2250, reason: 'Schedule conflict' },
    });
    expect(onDone).toHaveBeenCalled();
  });

  it.each([
    ['zero', '0', 'Amount must be a valid non-zero number'],
    ['not a number', 'abc', 'Amount must be a valid non-zero number'],
    ['above the order', '45.01', 'Refund amount cannot exceed the original amount of $45.00'],
  ])('refuses an amount that is %s', async (_name, text, error) => {
    const { calls } = renderDialog(
      okBody<'/api/admin/enrollment/{enrollment_id}/refund-quote', 'get'>(QUOTE),
    );
    await screen.findByRole('checkbox', { name: /Refund order #1042/ });
    await chooseReason('Other');
    fireEvent.change(amount(), { target: { value: text } });
    fireEvent.click(removeButton());
    expect(await screen.findByText(error)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
  });

  it("a refused refund says 'Failed to refund order. Please try again.' and the student stays", async () => {
    const { onDone } = renderDialog(
      okBody<'/api/admin/enrollment/{enrollment_id}/refund-quote', 'get'>(QUOTE),
      () =>
        errorBody(409, 'Charge has already been refunded.', { refund: 'Charge has already been refunded.' }),
    );
    await screen.findByRole('checkbox', { name: /Refund order #1042/ });
    await chooseReason('Other');
    fireEvent.click(removeButton());
    expect(await screen.findByText(REFUND_MESSAGES.removeRefundFailed)).toBeInTheDocument();
    expect(onDone).not.toHaveBeenCalled();
  });

  it('without the refund, removes with no body', async () => {
    const { calls } = renderDialog(
      okBody<'/api/admin/enrollment/{enrollment_id}/refund-quote', 'get'>(QUOTE),
    );
    fireEvent.click(await screen.findByRole('checkbox', { name: /Refund order #1042/ }));
    expect(screen.queryByRole('textbox', { name: 'Refund amount' })).not.toBeInTheDocument();
    fireEvent.click(removeButton());
    await screen.findByText(SCHEDULING_MESSAGES.studentRemoved);
    expect(calls.find((c) => c.method === 'DELETE')!.body).toBeUndefined();
  });

  it('without a payment method on file it says so and offers no refund when store credit is refused too', async () => {
    renderDialog(
      okBody<'/api/admin/enrollment/{enrollment_id}/refund-quote', 'get'>({
        ...QUOTE,
        has_payment_method: false,
        refusal: REFUND_MESSAGES.noPaymentMethod,
        credit_refusal: REFUND_MESSAGES.notRefundable,
      }),
    );
    expect(await screen.findByText(`Refund: ${REFUND_MESSAGES.noPaymentMethod}`)).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('refunds as store credit when chosen, and offers only store credit when the card is refused', async () => {
    const { calls } = renderDialog(
      okBody<'/api/admin/enrollment/{enrollment_id}/refund-quote', 'get'>(QUOTE),
    );
    await screen.findByRole('checkbox', { name: /Refund order #1042/ });
    expect(screen.getByRole('radio', { name: 'Refund to card' })).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: 'Refund as store credit' }));
    expect(
      screen.getByText("Added to the student's store credit at once; it pays at the store."),
    ).toBeInTheDocument();
    await chooseReason('Other');
    fireEvent.click(removeButton());
    await screen.findByText(SCHEDULING_MESSAGES.studentRemoved);
    expect(calls.find((c) => c.method === 'DELETE')!.body).toEqual({
      refund: { amount: 2250, reason: 'Other', refund_to: 'store_credit' },
    });
  });

  it('with no card on file, store credit is the one choice', async () => {
    const { calls } = renderDialog(
      okBody<'/api/admin/enrollment/{enrollment_id}/refund-quote', 'get'>({
        ...QUOTE,
        has_payment_method: false,
        refusal: REFUND_MESSAGES.noPaymentMethod,
      }),
    );
    await screen.findByRole('checkbox', { name: /Refund order #1042/ });
    expect(screen.getByRole('radio', { name: 'Refund to card' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Refund as store credit' })).toBeChecked();
    expect(screen.getByText(`Refund to card: ${REFUND_MESSAGES.noPaymentMethod}`)).toBeInTheDocument();
    await chooseReason('Other');
    fireEvent.click(removeButton());
    await screen.findByText(SCHEDULING_MESSAGES.studentRemoved);
    expect(calls.find((c) => c.method === 'DELETE')!.body).toMatchObject({
      refund: { refund_to: 'store_credit' },
    });
  });

  it('says the pack credit is given back; an owner may keep it', async () => {
    const { calls } = renderDialog(
      okBody<'/api/admin/enrollment/{enrollment_id}/refund-quote', 'get'>({
        ...QUOTE,
        order: null,
        refundable: 0,
        suggested_amount: 0,
        use: USE,
      }),
    );
    expect(await screen.findByText('5-class pack: Your class credit is given back.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: CREDIT_MESSAGES.keepUse }));
    expect(screen.getByText('5-class pack: the class credit used is kept.')).toBeInTheDocument();
    fireEvent.click(removeButton());
    await screen.findByText(SCHEDULING_MESSAGES.studentRemoved);
    expect(calls.find((c) => c.method === 'DELETE')!.body).toEqual({ keep_use: true });
  });

  it('staff read what happens to the pack credit but cannot keep it', async () => {
    const { calls } = renderDialog(
      okBody<'/api/admin/enrollment/{enrollment_id}/refund-quote', 'get'>({
        ...QUOTE,
        order: null,
        refundable: 0,
        suggested_amount: 0,
        use: USE,
      }),
      noContent,
      { ...TEST_SESSION, user: { ...TEST_SESSION.user, role: 'staff' } },
    );
    expect(await screen.findByText('5-class pack: Your class credit is given back.')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: CREDIT_MESSAGES.keepUse })).not.toBeInTheDocument();
    fireEvent.click(removeButton());
    await screen.findByText(SCHEDULING_MESSAGES.studentRemoved);
    expect(calls.find((c) => c.method === 'DELETE')!.body).toBeUndefined();
  });

  it('an order that was never charged says so and offers no refund', async () => {
    renderDialog(
      okBody<'/api/admin/enrollment/{enrollment_id}/refund-quote', 'get'>({
        ...QUOTE,
        refundable: 0,
        suggested_amount: 0,
        refusal: REFUND_MESSAGES.neverCharged,
        credit_refusal: REFUND_MESSAGES.neverCharged,
      }),
    );
    expect(await screen.findByText('Refund: Payment never charged')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('a failed load of the order shows the error with Retry', async () => {
    let fail = true;
    renderDialog(() =>
      fail
        ? errorBody(500, 'Boom')
        : okBody<'/api/admin/enrollment/{enrollment_id}/refund-quote', 'get'>(QUOTE),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Could not load the student's order");
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('checkbox', { name: /Refund order #1042/ })).toBeInTheDocument();
  });
});
