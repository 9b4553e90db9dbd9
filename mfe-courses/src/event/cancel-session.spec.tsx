import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  errorBody,
  mockFetch,
  okBody,
  renderWithProviders,
  type MockAnswer,
  type OkBodyOf,
} from '@studio/ui/testing';
import { SESSION_CANCEL_MESSAGES as M } from '@studio/contracts';
import { EventDrawer } from './event.drawer';
import { EVENT, EVENT_ID, PAGE } from './event-fixtures';

// The drawer renders antd tables: slow in jsdom on a busy two-core machine.
jest.setTimeout(180000);

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

type EventDetail = OkBodyOf<'/api/admin/events/{event_id}', 'get'>;
type Cancellation = OkBodyOf<'/api/admin/events/{event_id}/cancellation', 'get'>;

const student = (n: number, outcome: Cancellation['students'][number]['outcome'], refund_cents = 0) => ({
  enrollment_id: `11111111-0000-4000-8000-00000000000${n}`,
  student_id: `22222222-0000-4000-8000-00000000000${n}`,
  first_name: `Ada${n}`,
  last_name: 'Potter',
  email: `ada${n}@example.com`,
  order_id: null,
  outcome,
  refund_cents,
  note: null,
  processed_at: outcome === 'pending' ? null : '2026-03-01T12:00:00.000Z',
});
const cancellation = (processed: number): Cancellation => ({
  event_id: EVENT_ID,
  refund: 'full',
  refund_to: 'card',
  reason: 'The kiln broke',
  cancelled_at: '2026-03-01T12:00:00.000Z',
  total: 2,
  processed,
  refunded_cents: processed * 2600,
  students: [1, 2].map((n) => (n <= processed ? student(n, 'refunded', 2600) : student(n, 'pending'))),
});

/**
 * The event drawer's routes: the event answers as it stands (active, then cancelled once the POST
 * went through), the cancellation answers each progress in turn, then the last one again.
 */
function routes(options: { cancel?: MockAnswer; progress?: Cancellation[] } = {}) {
  let cancelled = false;
  const progress = [...(options.progress ?? [cancellation(0), cancellation(1), cancellation(2)])];
  const calls = mockFetch({
    [`GET /api/admin/events/${EVENT_ID}`]: () =>
      okBody<'/api/admin/events/{event_id}', 'get'>(
        cancelled
          ? ({ ...EVENT, status: 'cancelled', enrolled_count: 0, seats_taken: 0 } satisfies EventDetail)
          : EVENT,
      ),
    [`GET /api/admin/enrollment/event/${EVENT_ID}`]: okBody<'/api/admin/enrollment/event/{event_id}', 'get'>(
      PAGE,
    ),
    'GET /api/admin/events/tags': okBody<'/api/admin/events/tags', 'get'>({ tags: [] }),
    [`GET /api/admin/events/${EVENT_ID}/tags`]: okBody<'/api/admin/events/{event_id}/tags', 'get'>({
      tags: [],
    }),
    [`POST /api/admin/events/${EVENT_ID}/cancel`]: () => {
      const answer = options.cancel ?? okBody<'/api/admin/events/{event_id}/cancel', 'post'>(progress[0]);
      if ((answer.status ?? 200) < 300) cancelled = true;
      return answer;
    },
    [`GET /api/admin/events/${EVENT_ID}/cancellation`]: () =>
      okBody<'/api/admin/events/{event_id}/cancellation', 'get'>(
        progress.length > 1 ? progress.shift()! : progress[0],
      ),
  });
  return calls;
}

async function openCancel() {
  renderWithProviders(<EventDrawer data={{ eventId: EVENT_ID }} close={jest.fn()} />);
  await screen.findByRole('heading', { name: 'Wheel throwing' });
  fireEvent.click(screen.getByRole('button', { name: 'Cancel course' }));
  // The modal's title id is not unique under this remote's jest setup: the dialog is found by its action.
  const action = await screen.findByRole('button', { name: 'Cancel session' });
  return action.closest<HTMLElement>('[role="dialog"]')!;
}

describe('Cancel course on a session with students (issue 23)', () => {
  it('asks for the refund choice and the reason, and sends nothing without them', async () => {
    const calls = routes();
    const dialog = await openCancel();
    expect(within(dialog).getByText(/Its 2 students are removed and mailed the reason/)).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'Refund everyone in full' })).not.toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'No refund' })).not.toBeChecked();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel session' }));
    expect(await within(dialog).findByText(M.choiceRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(M.reasonRequired)).toBeInTheDocument();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason' }), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel session' }));
    await waitFor(() => expect(within(dialog).getByText(M.reasonRequired)).toBeInTheDocument());
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('cancels with "Refund everyone in full", then shows the badge and the progress the server reports until every student is done', async () => {
    const calls = routes();
    const dialog = await openCancel();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Refund everyone in full' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason' }), {
      target: { value: 'The kiln broke' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel session' }));
    expect(await screen.findByText(M.cancelled)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      refund: 'full',
      reason: 'The kiln broke',
    });

    // The drawer now reads the cancelled session: badge, no Add student nor Cancel course, the progress.
    expect(await screen.findByText('Cancelled')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Cancel course' })).not.toBeInTheDocument(),
    );
    expect(screen.queryByRole('button', { name: 'Add student' })).not.toBeInTheDocument();
    const section = screen.getByRole('region', { name: 'Cancellation' });
    expect(await within(section).findByText('Refunding 2 of 2…', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(within(section).getByText('Removed, refunded $26.00')).toBeInTheDocument();
    expect(within(section).getByText('Processing')).toBeInTheDocument();
    expect(
      await within(section).findByText('All 2 students processed', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(within(section).getAllByText('Removed, refunded $26.00')).toHaveLength(2);
    expect(within(section).getByText(/\$52\.00 refunded/)).toBeInTheDocument();
    expect(within(section).getByText(/Reason: The kiln broke/)).toBeInTheDocument();
    // Done: it stops asking.
    const asked = calls.filter((c) => c.url.endsWith('/cancellation')).length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(calls.filter((c) => c.url.endsWith('/cancellation')).length).toBe(asked);
  });

  it('a full refund may go to store credit: the choice shows only with "Refund everyone in full"', async () => {
    const calls = routes();
    const dialog = await openCancel();
    expect(within(dialog).queryByRole('radio', { name: 'Refund as store credit' })).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Refund everyone in full' }));
    expect(within(dialog).getByRole('radio', { name: 'Refund to card' })).toBeChecked();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Refund as store credit' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason' }), {
      target: { value: 'The kiln broke' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel session' }));
    expect(await screen.findByText(M.cancelled)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      refund: 'full',
      reason: 'The kiln broke',
      refund_to: 'store_credit',
    });
  });

  it('says why the server refused (already cancelled, no payment method) and keeps the dialog open', async () => {
    routes({ cancel: errorBody(409, M.noPaymentMethod) });
    const dialog = await openCancel();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'No refund' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason' }), {
      target: { value: 'Closed' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel session' }));
    expect(await within(dialog).findByText(M.noPaymentMethod)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel session' })).toBeInTheDocument();
  });

  it("shows the server's field message under its field", async () => {
    routes({ cancel: errorBody(400, M.reasonTooLong, { reason: M.reasonTooLong }) });
    const dialog = await openCancel();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'No refund' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason' }), {
      target: { value: 'Too long for the server' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel session' }));
    expect(await within(dialog).findByText(M.reasonTooLong)).toBeInTheDocument();
  });
});
