import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { WAITLIST_MESSAGES } from '@studio/contracts';
import {
  errorBody,
  freezeToday,
  mockFetch,
  okBody,
  renderWithProviders,
  type OkBodyOf,
} from '@studio/ui/testing';
import { EventWaitlist } from './event-waitlist';
import { EVENT_ID } from './event-fixtures';

jest.setTimeout(120000);

type Waitlist = OkBodyOf<'/api/admin/events/{event_id}/waitlist', 'get'>;
type Row = Waitlist['entries'][number];

const row = (n: number, patch: Partial<Row> = {}): Row => ({
  entry_id: `0000000${n}-0000-4000-8000-00000000000${n}`,
  name: `Person ${n}`,
  email: `person${n}@example.com`,
  party_size: 1,
  joined_at: '2026-11-20T15:00:00.000Z',
  status: 'waiting',
  offered_until: null,
  ...patch,
});
const OFFERED = row(1, {
  name: 'Olive Offered',
  status: 'offered',
  offered_until: '2026-11-23T02:00:00.000Z',
  party_size: 2,
});
const WAITING = row(2, { name: 'Walt Waiting' });
const LAST = row(3, { name: 'Lena Last' });
const EXPIRED = row(4, { name: 'Ezra Expired', status: 'expired' });
const LIST = `GET /api/admin/events/${EVENT_ID}/waitlist`;
const answerList = (entries: Row[]) => okBody<'/api/admin/events/{event_id}/waitlist', 'get'>({ entries });

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
beforeEach(() => freezeToday('2026-11-22T12:00:00Z'));
afterEach(() => jest.useRealTimers());
afterEach(() => jest.restoreAllMocks());

const table = () => screen.getByRole('table', { name: 'Waitlist' });
const names = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[1].textContent);

describe('EventWaitlist', () => {
  it('lists the waitlist in order with party size, joined and status (offered until … in the location zone)', async () => {
    mockFetch({ [LIST]: answerList([OFFERED, WAITING, LAST, EXPIRED]) });
    renderWithProviders(<EventWaitlist eventId={EVENT_ID} timezone="America/Chicago" />);
    await screen.findByText('Olive Offered');
    expect(names()).toEqual(['Olive Offered', 'Walt Waiting', 'Lena Last', 'Ezra Expired']);
    const [first, second, , fourth] = within(table()).getAllByRole('row').slice(1);
    expect(within(first).getByText('Offered until Sun, Nov 22 8:00 PM CST')).toBeInTheDocument();
    expect(within(first).getByText('2')).toBeInTheDocument();
    expect(within(first).getByText('person1@example.com')).toBeInTheDocument();
    expect(within(second).getByText('Waiting')).toBeInTheDocument();
    expect(within(fourth).getByText('Expired')).toBeInTheDocument();
    // An offered entry cannot be offered again; the first cannot move up, the last waiting one not down.
    expect(within(first).queryByRole('button', { name: /Offer the seat/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Move Olive Offered up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move Lena Last down' })).toBeDisabled();
    // Entries no longer waiting have no actions.
    expect(within(fourth).queryAllByRole('button')).toHaveLength(0);
  });

  it('moves an entry up and shows the new order', async () => {
    const calls = mockFetch({
      [LIST]: answerList([OFFERED, WAITING, LAST]),
      [`POST /api/admin/waitlist/${LAST.entry_id}/move`]: okBody<
        '/api/admin/waitlist/{entry_id}/move',
        'post'
      >({ entries: [OFFERED, LAST, WAITING] }),
    });
    renderWithProviders(<EventWaitlist eventId={EVENT_ID} timezone="America/Chicago" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Move Lena Last up' }));
    expect(await screen.findByText(WAITLIST_MESSAGES.moved)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ direction: 'up' });
    await waitFor(() => expect(names()).toEqual(['Olive Offered', 'Lena Last', 'Walt Waiting']));
  });

  it("offers the seat, and shows the API's refusal when the seats are not free", async () => {
    let free = false;
    mockFetch({
      [LIST]: answerList([WAITING]),
      [`POST /api/admin/waitlist/${WAITING.entry_id}/offer`]: () =>
        free
          ? okBody<'/api/admin/waitlist/{entry_id}/offer', 'post'>({
              entries: [{ ...WAITING, status: 'offered', offered_until: '2026-11-23T00:00:00.000Z' }],
            })
          : errorBody(409, WAITLIST_MESSAGES.seatsNotFree),
    });
    renderWithProviders(<EventWaitlist eventId={EVENT_ID} timezone="America/Chicago" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Offer the seat to Walt Waiting' }));
    expect(await screen.findByText(WAITLIST_MESSAGES.seatsNotFree)).toBeInTheDocument();
    expect(within(table()).getByText('Waiting')).toBeInTheDocument();
    free = true;
    fireEvent.click(screen.getByRole('button', { name: 'Offer the seat to Walt Waiting' }));
    expect(await screen.findByText(WAITLIST_MESSAGES.offered)).toBeInTheDocument();
    expect(await within(table()).findByText('Offered until Sun, Nov 22 6:00 PM CST')).toBeInTheDocument();
  });

  it('removes an entry', async () => {
    const calls = mockFetch({
      [LIST]: answerList([OFFERED, WAITING]),
      [`DELETE /api/admin/waitlist/${OFFERED.entry_id}`]: okBody<'/api/admin/waitlist/{entry_id}', 'delete'>({
        entries: [
          { ...OFFERED, status: 'removed', offered_until: null },
          { ...WAITING, status: 'offered', offered_until: '2026-11-23T00:00:00.000Z' },
        ],
      }),
    });
    renderWithProviders(<EventWaitlist eventId={EVENT_ID} timezone="America/Chicago" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Olive Offered from the waitlist' }));
    expect(await screen.findByText(WAITLIST_MESSAGES.removed)).toBeInTheDocument();
    expect(
      calls.some((c) => c.method === 'DELETE' && c.url === `/api/admin/waitlist/${OFFERED.entry_id}`),
    ).toBe(true);
    const [first] = within(table()).getAllByRole('row').slice(1);
    await waitFor(() => expect(within(first).getByText('Removed')).toBeInTheDocument());
  });
});
