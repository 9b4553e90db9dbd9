import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { errorBody, mockFetch, okBody, renderWithProviders } from '@studio/ui/testing';
import { ATTENDANCE_MESSAGES, SCHEDULING_MESSAGES } from '@studio/contracts';
import { EnrollmentsGrid } from './enrollments-grid';
import { enrollmentQueryString, INITIAL_ENROLLMENT_QUERY } from './enrollment-query';
import { GuestCountDialog } from './guest-count-dialog';
import { EVENT_ID, PAGE, ROW } from './event-fixtures';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

describe('enrollmentQueryString', () => {
  it('writes page, limit 20, search, sort and filter[column], leaving out empty parts', () => {
    expect(enrollmentQueryString(INITIAL_ENROLLMENT_QUERY)).toBe(
      'page=1&limit=20&sortField=created_at&sortOrder=asc',
    );
    const query = enrollmentQueryString({
      ...INITIAL_ENROLLMENT_QUERY,
      page: 3,
      search: ' ada ',
      sortField: 'last_name',
      sortOrder: 'desc',
      filter: { email: 'example.com', waiverStatus: 'signed', phone: ' ' },
    });
    expect(new URLSearchParams(query).toString()).toBe(
      'page=3&limit=20&search=ada&sortField=last_name&sortOrder=desc&filter%5Bemail%5D=example.com&filter%5BwaiverStatus%5D=signed',
    );
  });
});

describe('EnrollmentsGrid', () => {
  it('names the membership or pack a seat was booked on beside its order', async () => {
    const page = okBody<'/api/admin/enrollment/event/{event_id}', 'get'>({
      ...PAGE,
      enrollments: [{ ...ROW, paid_with: '10-class pack' }],
    });
    mockFetch({ [`GET /api/admin/enrollment/event/${EVENT_ID}`]: page });
    renderWithProviders(
      <EnrollmentsGrid eventId={EVENT_ID} timezone="UTC" onEditGuests={jest.fn()} onRemove={jest.fn()} onOpenStudent={jest.fn()} />,
    );
    expect(await screen.findByText('#1042 · $0.00 · 10-class pack')).toBeInTheDocument();
  });

  it('says when a seat\'s order was refunded, in full or in part (issue 25)', async () => {
    const page = okBody<'/api/admin/enrollment/event/{event_id}', 'get'>({
      ...PAGE,
      enrollments: [
        { ...ROW, Order: { order_id: 'o1', order_number: 1095, totalPrice: 6500, refundedPrice: 6500, status: 'refunded' } },
        {
          ...ROW,
          enrollment_id: '11111111-0000-4000-8000-000000000002',
          Student: { ...ROW.Student, first_name: 'Bo', email: 'bo@example.com' },
          Order: { order_id: 'o2', order_number: 1096, totalPrice: 6500, refundedPrice: 2000, status: 'partial_refund' },
        },
      ],
      totalCount: 2,
    });
    mockFetch({ [`GET /api/admin/enrollment/event/${EVENT_ID}`]: page });
    renderWithProviders(
      <EnrollmentsGrid eventId={EVENT_ID} timezone="UTC" onEditGuests={jest.fn()} onRemove={jest.fn()} onOpenStudent={jest.fn()} />,
    );
    const ada = (await screen.findByText('ada@example.com')).closest('tr')!;
    expect(within(ada as HTMLElement).getByText('#1095 · $65.00')).toBeInTheDocument();
    expect(within(ada as HTMLElement).getByText('Refunded')).toBeInTheDocument();
    const bo = screen.getByText('bo@example.com').closest('tr')!;
    expect(within(bo as HTMLElement).getByText('Refunded $20.00')).toBeInTheDocument();
  });

  it('lists the seats held but not enrolled yet, who for, why and until when, and counts them (issue 25)', async () => {
    const page = okBody<'/api/admin/enrollment/event/{event_id}', 'get'>({
      ...PAGE,
      heldSeats: [
        {
          hold_id: '22222222-0000-4000-8000-000000000001',
          kind: 'payment_link',
          seats: 2,
          expires_at: '2026-04-01T17:00:00.000Z',
          name: 'Cy Pending',
          email: 'cy@example.com',
          student_id: '33333333-0000-4000-8000-000000000001',
          Order: { order_id: '44444444-0000-4000-8000-000000000001', order_number: 1100, totalPrice: 9000 },
        },
        {
          hold_id: '22222222-0000-4000-8000-000000000002',
          kind: 'waitlist_offer',
          seats: 1,
          expires_at: '2026-04-01T18:30:00.000Z',
          name: 'Dee Waiting',
          email: 'dee@example.com',
          student_id: null,
          Order: null,
        },
      ],
    });
    mockFetch({ [`GET /api/admin/enrollment/event/${EVENT_ID}`]: page });
    renderWithProviders(
      <EnrollmentsGrid eventId={EVENT_ID} timezone="UTC" onEditGuests={jest.fn()} onRemove={jest.fn()} onOpenStudent={jest.fn()} />,
    );
    const held = await screen.findByRole('region', { name: 'Held seats' });
    const items = within(held).getAllByRole('listitem').map((li) => li.textContent);
    expect(items[0]).toMatch(/^Cy Pending \(cy@example\.com\) · 2 seats · Payment link #1100 · \$90\.00 · held until .*5:00 PM/);
    expect(items[1]).toMatch(/^Dee Waiting \(dee@example\.com\) · 1 seat · Waitlist offer · held until .*6:30 PM/);
    expect(screen.getByText('1 enrolled · 3 seats held')).toBeInTheDocument();
  });

  it('asks the server for each search, sort and page', async () => {
    const many = okBody<'/api/admin/enrollment/event/{event_id}', 'get'>({ ...PAGE, totalCount: 45 });
    const calls = mockFetch({ [`GET /api/admin/enrollment/event/${EVENT_ID}`]: many });
    renderWithProviders(
      <EnrollmentsGrid
        eventId={EVENT_ID}
        timezone="UTC"
        onEditGuests={jest.fn()}
        onRemove={jest.fn()}
        onOpenStudent={jest.fn()}
      />,
    );
    await screen.findByText('ada@example.com');
    const last = () => new URLSearchParams(calls.at(-1)!.url.split('?')[1]);
    expect(last().get('page')).toBe('1');
    expect(last().get('limit')).toBe('20');

    fireEvent.change(screen.getByLabelText('Search enrollments'), { target: { value: 'love' } });
    fireEvent.keyDown(screen.getByLabelText('Search enrollments'), {
      key: 'Enter',
      code: 'Enter',
      keyCode: 13,
    });
    await waitFor(() => expect(last().get('search')).toBe('love'));

    fireEvent.click(screen.getAllByText('Last name')[0]);
    await waitFor(() => expect(last().get('sortField')).toBe('last_name'));
    expect(last().get('sortOrder')).toBe('asc');
    fireEvent.click(screen.getAllByText('Last name')[0]);
    await waitFor(() => expect(last().get('sortOrder')).toBe('desc'));

    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(last().get('page')).toBe('3'));
    expect(last().get('search')).toBe('love');
    expect(screen.getByText('45 enrolled')).toBeInTheDocument();
  });
});

describe('EnrollmentsGrid names', () => {
  it("a click on a student's first or last name opens that student", async () => {
    mockFetch({
      [`GET /api/admin/enrollment/event/${EVENT_ID}`]: okBody<
        '/api/admin/enrollment/event/{event_id}',
        'get'
      >(PAGE),
    });
    const onOpenStudent = jest.fn();
    renderWithProviders(
      <EnrollmentsGrid
        eventId={EVENT_ID}
        timezone="UTC"
        onEditGuests={jest.fn()}
        onRemove={jest.fn()}
        onOpenStudent={onOpenStudent}
      />,
    );
    fireEvent.click(await screen.findByRole('button', { name: ROW.Student!.first_name }));
    expect(onOpenStudent).toHaveBeenCalledWith(ROW.student_id);
    fireEvent.click(screen.getByRole('button', { name: ROW.Student!.last_name }));
    expect(onOpenStudent).toHaveBeenCalledTimes(2);
  });
});

describe('GuestCountDialog', () => {
  it('takes a whole number from 0, disables Save when empty, and sends it', async () => {
    const onSaved = jest.fn();
    const calls = mockFetch({
      [`PUT /api/admin/enrollment/${ROW.enrollment_id}/guests`]: okBody<
        '/api/admin/enrollment/{enrollment_id}/guests',
        'put'
      >({ enrollment_id: ROW.enrollment_id, guestCount: 0 }),
    });
    renderWithProviders(
      <GuestCountDialog eventId={EVENT_ID} enrollment={ROW} onClose={jest.fn()} onSaved={onSaved} />,
    );
    const input = await screen.findByLabelText('Guest count');
    const save = () => screen.getByRole('button', { name: 'Save' });
    expect(input).toHaveValue('1');
    fireEvent.change(input, { target: { value: '' } });
    expect(save()).toBeDisabled();
    fireEvent.change(input, { target: { value: '-1' } });
    expect(screen.getByText(SCHEDULING_MESSAGES.guestCountMin)).toBeInTheDocument();
    expect(save()).toBeDisabled();
    fireEvent.change(input, { target: { value: '1.5' } });
    expect(save()).toBeDisabled();
    fireEvent.change(input, { target: { value: '0' } });
    expect(save()).toBeEnabled();
    fireEvent.click(save());
    expect(await screen.findByText(SCHEDULING_MESSAGES.guestCountUpdated)).toBeInTheDocument();
    expect(calls[0].body).toEqual({ guestCount: 0 });
    expect(onSaved).toHaveBeenCalled();
  });

  it("toasts 'Failed to update guest count' and shows the server's seat message", async () => {
    mockFetch({
      [`PUT /api/admin/enrollment/${ROW.enrollment_id}/guests`]: errorBody(
        409,
        SCHEDULING_MESSAGES.notEnoughSeats(1),
      ),
    });
    const onSaved = jest.fn();
    renderWithProviders(
      <GuestCountDialog eventId={EVENT_ID} enrollment={ROW} onClose={jest.fn()} onSaved={onSaved} />,
    );
    fireEvent.change(await screen.findByLabelText('Guest count'), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.guestCountFailed)).toBeInTheDocument();
    expect(within(document.body).getByText(SCHEDULING_MESSAGES.notEnoughSeats(1))).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
  });
});

describe('EnrollmentsGrid waiver status', () => {
  it('shows signed as Completed, pending as Pending, expired as Unknown and not_required as N/A (spec 001 §4)', async () => {
    const statuses = ['signed', 'pending', 'expired', 'not_required'] as const;
    const rows = statuses.map((waiverStatus, i) => ({
      ...ROW,
      enrollment_id: `11111111-0000-4000-8000-00000000000${i + 1}`,
      waiverStatus,
      Student: { ...ROW.Student, email: `${waiverStatus}@example.com` },
    }));
    mockFetch({
      [`GET /api/admin/enrollment/event/${EVENT_ID}`]: okBody<
        '/api/admin/enrollment/event/{event_id}',
        'get'
      >({ ...PAGE, enrollments: rows, totalCount: 4 }),
    });
    renderWithProviders(
      <EnrollmentsGrid
        eventId={EVENT_ID}
        timezone="UTC"
        onEditGuests={jest.fn()}
        onRemove={jest.fn()}
        onOpenStudent={jest.fn()}
      />,
    );
    const rowOf = async (email: string) => (await screen.findByText(email)).closest('tr')!;
    expect(await rowOf('signed@example.com')).toHaveTextContent('Completed');
    expect(await rowOf('pending@example.com')).toHaveTextContent('Pending');
    expect(await rowOf('expired@example.com')).toHaveTextContent('Unknown');
    expect(await rowOf('not_required@example.com')).toHaveTextContent('N/A');
  });
});

describe('EnrollmentsGrid in a narrow drawer', () => {
  it('keeps the Remove action in a column fixed to the right edge while the other columns scroll', async () => {
    const onRemove = jest.fn();
    mockFetch({
      [`GET /api/admin/enrollment/event/${EVENT_ID}`]: okBody<
        '/api/admin/enrollment/event/{event_id}',
        'get'
      >(PAGE),
    });
    renderWithProviders(
      <div style={{ width: 360 }}>
        <EnrollmentsGrid
          eventId={EVENT_ID}
          timezone="UTC"
          onEditGuests={jest.fn()}
          onRemove={onRemove}
          onOpenStudent={jest.fn()}
        />
      </div>,
    );
    await screen.findByText('ada@example.com');
    const remove = screen.getAllByRole('button', { name: /^Remove / })[0];
    const cell = remove.closest('td')!;
    expect(cell.className).toMatch(/ant-table-cell-fix-(right|end)/);
    // antd pins a fixed column (position: sticky in its CSS) at the end edge: inset-inline-end 0.
    expect(cell.style.insetInlineEnd).toBe('0');
    // The grid scrolls on its own, inside its own box, not the drawer.
    expect(cell.closest('.ant-table-content, .ant-table-body')).toHaveStyle({ overflowX: 'auto' });
    // The email column is not pinned: it is what scrolls under the action.
    expect(screen.getByText('ada@example.com').closest('td')!.className).not.toMatch(/ant-table-cell-fix/);
    fireEvent.click(remove);
    expect(onRemove).toHaveBeenCalledWith(
      expect.objectContaining({ Student: expect.objectContaining({ email: 'ada@example.com' }) }),
    );
  });
});

describe('EnrollmentsGrid attendance (issue 23)', () => {
  const grid = (
    <EnrollmentsGrid
      eventId={EVENT_ID}
      timezone="UTC"
      onEditGuests={jest.fn()}
      onRemove={jest.fn()}
      onOpenStudent={jest.fn()}
    />
  );
  const path = `/api/admin/enrollment/${ROW.enrollment_id}/check-in`;

  it('checks a student in with one click, shows Undo, and undoes it; the list reads again each time', async () => {
    // A fake server that remembers the check-in, as the API does.
    let checkedInAt: string | null = null;
    const row = () => ({
      ...ROW,
      checked_in_at: checkedInAt,
      attendance: checkedInAt ? ('checked_in' as const) : ('not_checked_in' as const),
    });
    const calls = mockFetch({
      [`GET /api/admin/enrollment/event/${EVENT_ID}`]: () =>
        okBody<'/api/admin/enrollment/event/{event_id}', 'get'>({ ...PAGE, enrollments: [row()] }),
      [`PUT ${path}`]: () => {
        checkedInAt = '2026-03-08T17:05:00Z';
        return okBody<'/api/admin/enrollment/{enrollment_id}/check-in', 'put'>({
          enrollment_id: ROW.enrollment_id,
          checked_in_at: checkedInAt,
          attendance: 'checked_in',
        });
      },
      [`DELETE ${path}`]: () => {
        checkedInAt = null;
        return okBody<'/api/admin/enrollment/{enrollment_id}/check-in', 'delete'>({
          enrollment_id: ROW.enrollment_id,
          checked_in_at: null,
          attendance: 'not_checked_in',
        });
      },
    });
    renderWithProviders(grid);
    const reads = () => calls.filter((c) => c.method === 'GET').length;
    fireEvent.click(await screen.findByRole('button', { name: 'Check in Ada Lovelace' }));
    const undo = await screen.findByRole('button', { name: 'Undo check-in of Ada Lovelace' });
    expect(undo.closest('tr')).toHaveTextContent('Checked in');
    expect(await screen.findByText(ATTENDANCE_MESSAGES.checkedIn, { selector: '.ant-message *' })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
    const readsAfterCheckIn = reads();
    expect(readsAfterCheckIn).toBeGreaterThanOrEqual(2);

    fireEvent.click(undo);
    await screen.findByRole('button', { name: 'Check in Ada Lovelace' });
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
    expect(reads()).toBeGreaterThan(readsAfterCheckIn);
    expect(screen.getByText('ada@example.com').closest('tr')).not.toHaveTextContent('Checked in');
  });

  it('labels a student not checked in after the session No-show, and shows the server message when refused', async () => {
    mockFetch({
      [`GET /api/admin/enrollment/event/${EVENT_ID}`]: okBody<'/api/admin/enrollment/event/{event_id}', 'get'>({
        ...PAGE,
        enrollments: [{ ...ROW, attendance: 'no_show' }],
      }),
      [`PUT ${path}`]: errorBody(409, ATTENDANCE_MESSAGES.checkInRemoved),
    });
    renderWithProviders(grid);
    const checkIn = await screen.findByRole('button', { name: 'Check in Ada Lovelace' });
    expect(checkIn.closest('tr')).toHaveTextContent('No-show');
    fireEvent.click(checkIn);
    expect(await screen.findByText(ATTENDANCE_MESSAGES.checkInRemoved)).toBeInTheDocument();
  });

  it('filters by attendance on the server', async () => {
    const calls = mockFetch({
      [`GET /api/admin/enrollment/event/${EVENT_ID}`]: okBody<'/api/admin/enrollment/event/{event_id}', 'get'>(PAGE),
    });
    renderWithProviders(grid);
    await screen.findByText('ada@example.com');
    const header = screen.getAllByText('Attendance')[0].closest('th')!;
    fireEvent.click(header.querySelector('.ant-table-filter-trigger')!);
    fireEvent.click(await screen.findByText('No-show'));
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(new URLSearchParams(calls.at(-1)!.url.split('?')[1]).get('filter[attendance]')).toBe('no_show'),
    );
  });

  it('sorts by check-in on the server', async () => {
    const calls = mockFetch({
      [`GET /api/admin/enrollment/event/${EVENT_ID}`]: okBody<'/api/admin/enrollment/event/{event_id}', 'get'>(PAGE),
    });
    renderWithProviders(grid);
    await screen.findByText('ada@example.com');
    fireEvent.click(screen.getAllByText('Attendance')[0]);
    await waitFor(() => expect(new URLSearchParams(calls.at(-1)!.url.split('?')[1]).get('sortField')).toBe('checked_in_at'));
  });
});
