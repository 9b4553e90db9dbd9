import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  errorBody,
  freezeToday,
  mockFetch,
  okBody,
  renderWithProviders,
  type MockAnswer,
  type OkBodyOf,
} from '@studio/ui/testing';
import { COURSE_MESSAGES, SCHEDULING_MESSAGES } from '@studio/contracts';
import { RemoteRegistryContext } from '@studio/ui';
import { EventDrawer } from './event.drawer';
import { EVENT, EVENT_ID, PAGE } from './event-fixtures';

// The drawer renders the antd table too: slow in jsdom on a busy two-core machine.
jest.setTimeout(180000);

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
beforeEach(() => freezeToday('2026-11-22T12:00:00Z'));
afterEach(() => jest.useRealTimers());
afterEach(() => jest.restoreAllMocks());

type EventDetail = OkBodyOf<'/api/admin/events/{event_id}', 'get'>;
const answerEvent = (event: EventDetail = EVENT) => okBody<'/api/admin/events/{event_id}', 'get'>(event);

function routes(extra: Record<string, MockAnswer> = {}, event: MockAnswer = answerEvent()) {
  return mockFetch({
    [`GET /api/admin/events/${EVENT_ID}`]: event,
    [`GET /api/admin/enrollment/event/${EVENT_ID}`]: okBody<'/api/admin/enrollment/event/{event_id}', 'get'>(
      PAGE,
    ),
    'GET /api/admin/events/tags': okBody<'/api/admin/events/tags', 'get'>({ tags: [] }),
    [`GET /api/admin/events/${EVENT_ID}/tags`]: okBody<'/api/admin/events/{event_id}/tags', 'get'>({
      tags: [],
    }),
    [`GET /api/admin/events/${EVENT_ID}/waitlist`]: okBody<'/api/admin/events/{event_id}/waitlist', 'get'>({
      entries: [],
    }),
    ...extra,
  });
}

// The students remote is not there in a unit test: its dialogs stand in as a marker.
const registry = async () => ({
  add_student: ({ data }: { data: { event_id?: string } }) => (
    <div role="note">add student to {data.event_id}</div>
  ),
});

async function renderDrawer() {
  renderWithProviders(
    <RemoteRegistryContext.Provider value={registry}>
      <EventDrawer data={{ eventId: EVENT_ID }} close={jest.fn()} />
    </RemoteRegistryContext.Provider>,
  );
  await screen.findByRole('heading', { name: 'Wheel throwing' });
}

describe('EventDrawer', () => {
  it('shows Event Details and Enrollments with the days in the location zone, price and seats', async () => {
    routes();
    await renderDrawer();
    const details = screen.getByRole('region', { name: 'Event Details' });
    // One way to read dates: 12-hour clock, the year only when it is not this one, durations in words,
    // and the location's zone named because it is not the admin's (New York).
    expect(within(details).getByText('Thu, Apr 2 6:30 PM · 1 h 30 min')).toBeInTheDocument();
    expect(within(details).getByText('Thu, Apr 2 6:30 PM CDT')).toBeInTheDocument();
    expect(within(details).getByText('$45.00')).toBeInTheDocument();
    expect(within(details).getByText('3 / 8')).toBeInTheDocument();
    expect(within(details).getByText('Evening group')).toBeInTheDocument();
    const enrollments = screen.getByRole('region', { name: 'Enrollments' });
    expect(await within(enrollments).findByText('ada@example.com')).toBeInTheDocument();
    for (const action of ['Add student', 'Edit course', 'Cancel course']) {
      expect(screen.getByRole('button', { name: action })).toBeInTheDocument();
    }
    fireEvent.click(screen.getByRole('button', { name: 'Add student' }));
    expect(await screen.findByRole('note')).toHaveTextContent(`add student to ${EVENT_ID}`);
  });

  it("shows the session's Zoom join link and, once it has taken place, the meeting summary", async () => {
    routes(
      {},
      answerEvent({
        ...EVENT,
        meeting_join_url: 'https://zoom.example/j/85000000001?pwd=abc',
        meeting_summary: 'Centered clay and pulled the first walls.',
      }),
    );
    await renderDrawer();
    const meeting = screen.getByRole('region', { name: 'Meeting' });
    expect(within(meeting).getByRole('link', { name: 'Join the Zoom meeting' })).toHaveAttribute(
      'href',
      'https://zoom.example/j/85000000001?pwd=abc',
    );
    expect(within(meeting).getByText('Centered clay and pulled the first walls.')).toBeInTheDocument();
  });

  it('shows the Waitlist section, empty when nobody waits', async () => {
    routes();
    await renderDrawer();
    const waitlist = screen.getByRole('region', { name: 'Waitlist' });
    expect(await within(waitlist).findByText('Nobody is on the waitlist')).toBeInTheDocument();
  });

  it('shows no Meeting section for a session without a meeting', async () => {
    routes();
    await renderDrawer();
    expect(screen.queryByRole('region', { name: 'Meeting' })).toBeNull();
  });

  it("says 'Failed to load event details' when the event cannot be loaded", async () => {
    routes({}, errorBody(500, 'boom'));
    renderWithProviders(<EventDrawer data={{ event_id: EVENT_ID }} close={jest.fn()} />);
    expect(await screen.findByText(SCHEDULING_MESSAGES.eventLoadFailed)).toBeInTheDocument();
  });

  it('offers to cancel, not delete, a session with students (issue 23: cancel-session.spec)', async () => {
    const calls = routes();
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel course' }));
    expect(await screen.findByRole('button', { name: 'Cancel session' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it('refuses to delete when a student enrolled meanwhile, with the spec message', async () => {
    routes(
      { [`DELETE /api/admin/events/${EVENT_ID}`]: errorBody(409, SCHEDULING_MESSAGES.deleteBlocked) },
      answerEvent({ ...EVENT, enrolled_count: 0, seats_taken: 0 }),
    );
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel course' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.deleteBlocked)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
  });

  it('deletes an empty session, toasts, closes and goes to the course page', async () => {
    const calls = routes(
      {
        [`DELETE /api/admin/events/${EVENT_ID}`]: okBody<'/api/admin/events/{event_id}', 'delete'>({
          activity_id: EVENT.activity_id,
          redirect_to: `/admin/courses/${EVENT.activity_id}`,
        }),
      },
      answerEvent({ ...EVENT, enrolled_count: 0, seats_taken: 0 }),
    );
    const close = jest.fn();
    renderWithProviders(<EventDrawer data={{ eventId: EVENT_ID }} close={close} />);
    await screen.findByRole('heading', { name: 'Wheel throwing' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel course' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(COURSE_MESSAGES.sessionDeleted)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
    expect(window.location.pathname).toBe(`/admin/courses/${EVENT.activity_id}`);
    expect(close).toHaveBeenCalled();
  });

  it("edit event dialog: a free session's capacity changes with no price, and it stays free", async () => {
    const free: EventDetail = { ...EVENT, price: 0 };
    const calls = routes(
      {
        [`PUT /api/admin/events/${EVENT_ID}`]: okBody<'/api/admin/events/{event_id}', 'put'>({
          ...free,
          capacity: 20,
        }),
      },
      answerEvent(free),
    );
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: /Edit event/ }));
    await screen.findByLabelText('Internal short description');
    const dialog = screen.getByLabelText('Internal short description').closest('.ant-modal') as HTMLElement;
    const price = within(dialog).getByLabelText('Price');
    expect(price).toHaveValue('');
    expect(price).toHaveAttribute('placeholder', 'Free');
    fireEvent.change(within(dialog).getByLabelText('Capacity'), { target: { value: '20' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(COURSE_MESSAGES.updatedSuccessfully)).toBeInTheDocument();
    expect(screen.queryByText(SCHEDULING_MESSAGES.priceEmpty)).toBeNull();
    expect(screen.queryByText(SCHEDULING_MESSAGES.pricePositive)).toBeNull();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      capacity: 20,
      internal_short_description: 'Evening group',
    });
  });

  it('edit event dialog: the spec messages, then the server 409 message', async () => {
    const calls = routes({
      [`PUT /api/admin/events/${EVENT_ID}`]: errorBody(409, SCHEDULING_MESSAGES.capacityBelowSeats(3)),
    });
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: /Edit event/ }));
    await screen.findByLabelText('Internal short description');
    const dialog = screen.getByLabelText('Internal short description').closest('.ant-modal') as HTMLElement;
    const capacity = within(dialog).getByLabelText('Capacity');
    const price = within(dialog).getByLabelText('Price');
    expect(capacity).toHaveValue('8');
    expect(price).toHaveValue('45.00');
    fireEvent.change(capacity, { target: { value: '' } });
    fireEvent.change(price, { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(SCHEDULING_MESSAGES.capacityEmpty)).toBeInTheDocument();
    expect(within(dialog).getByText(SCHEDULING_MESSAGES.priceEmpty)).toBeInTheDocument();
    fireEvent.change(capacity, { target: { value: '2.5' } });
    fireEvent.change(price, { target: { value: '450.999' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(SCHEDULING_MESSAGES.capacityWhole)).toBeInTheDocument();
    expect(within(dialog).getByText(SCHEDULING_MESSAGES.priceCurrency)).toBeInTheDocument();
    fireEvent.change(capacity, { target: { value: '0' } });
    fireEvent.change(price, { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(SCHEDULING_MESSAGES.capacityMin)).toBeInTheDocument();
    expect(within(dialog).getByText(SCHEDULING_MESSAGES.pricePositive)).toBeInTheDocument();
    fireEvent.change(capacity, { target: { value: '2' } });
    fireEvent.change(price, { target: { value: '$50.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(SCHEDULING_MESSAGES.capacityBelowSeats(3))).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
        capacity: 2,
        price: 5050,
        internal_short_description: 'Evening group',
      }),
    );
    expect(screen.getByText(COURSE_MESSAGES.updateFailedShort)).toBeInTheDocument();
  });
});
