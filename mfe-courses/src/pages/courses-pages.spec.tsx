import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import {
  courseDetail,
  courseSession,
  courseSummary,
  createTestQueryClient,
  freezeToday,
  mockFetch,
  okBody,
  renderWithProviders,
  type OkBodyOf,
} from '@studio/ui/testing';
import { useDrawer } from '@studio/ui';
import { CoursesPage } from './courses.page';
import { CourseDetailPage } from './course-detail.page';

const ID = 'a1';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
// Dates of 2026 read without their year; the tests' browser runs in UTC, the organization in New York.
beforeEach(() => freezeToday('2026-11-22T12:00:00Z'));
afterEach(() => jest.useRealTimers());
afterEach(() => jest.restoreAllMocks());

type CourseList = OkBodyOf<'/api/admin/activities', 'get'>;
type SessionRow = OkBodyOf<'/api/admin/activities/{activity_id}/sessions', 'get'>['sessions'][number];

/** One row of GET /api/admin/activities, as the API answers it. */
const summary = (overrides: Partial<CourseList['activities'][number]>) =>
  courseSummary({
    activity_id: ID,
    name: 'Wheel throwing',
    image: '/media/a.png',
    location_address: '1 Clay St',
    next_session_at: '2026-03-14T23:30:00Z',
    session_count: 2,
    created_at: '2026-01-01T00:00:00Z',
    ...overrides,
  });

/** A first page of the list holding these rows. */
const listOf = (activities: CourseList['activities']) =>
  okBody<'/api/admin/activities', 'get'>({
    activities,
    totalCount: activities.length,
    currentPage: 1,
    itemsPerPage: 20,
  });

/** Shows which drawer is open, as the shell's drawer host would. */
function OpenDrawer() {
  const { current } = useDrawer();
  return (
    <>
      <output aria-label="open drawer">
        {current ? `${current.type} ${JSON.stringify(current.data)}` : ''}
      </output>
      <button onClick={() => current?.data.onClose?.()}>run onClose</button>
    </>
  );
}

function renderAt(path: string) {
  const client = createTestQueryClient();
  renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <OpenDrawer />
      <Routes>
        <Route path="/admin/courses" element={<CoursesPage />} />
        <Route path="/admin/courses/:activityId" element={<CourseDetailPage />} />
      </Routes>
    </MemoryRouter>,
    undefined,
    { queryClient: client },
  );
  return client;
}

describe('Courses page', () => {
  it('lists the courses with their Listed / Unlisted badge, next session and price', async () => {
    mockFetch({
      'GET /api/admin/activities': listOf([
        summary({}),
        summary({
          activity_id: 'a2',
          name: 'Leather wallets',
          listed: false,
          next_session_at: null,
          price_type: 'free',
        }),
      ]),
    });
    renderAt('/admin/courses');
    const first = (await screen.findByRole('link', { name: 'Wheel throwing' })).closest('tr') as HTMLElement;
    expect(within(first).getByText('Listed')).toBeInTheDocument();
    expect(within(first).getByText('Sat, Mar 14 7:30 PM EDT')).toBeInTheDocument();
    expect(within(first).getByText('$45.00')).toBeInTheDocument();
    const second = screen.getByRole('link', { name: 'Leather wallets' }).closest('tr') as HTMLElement;
    expect(within(second).getByText('Unlisted')).toBeInTheDocument();
    expect(within(second).getByText('Free')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Wheel throwing' })).toHaveAttribute('href', '/admin/courses/a1');
  });

  it('asks the server for each search, sort and page, and shows its total', async () => {
    const calls = mockFetch({
      'GET /api/admin/activities': ({ url }) => {
        const q = new URL(url, 'http://x').searchParams;
        const page = Number(q.get('page'));
        return okBody<'/api/admin/activities', 'get'>({
          activities: [
            summary({ activity_id: `p${page}`, name: `Page ${page} course · ${q.get('search') ?? ''}` }),
          ],
          totalCount: 45,
          currentPage: page,
          itemsPerPage: Number(q.get('limit')),
        });
      },
    });
    const params = () => new URL(calls.at(-1)!.url, 'http://x').searchParams;
    renderAt('/admin/courses');
    await screen.findByRole('link', { name: /^Page 1 course/ });
    expect(Object.fromEntries(params())).toEqual({ page: '1', limit: '20' });
    expect(screen.getByText('45 courses')).toBeInTheDocument();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search courses' }), {
      target: { value: 'clay' },
    });
    // The search waits for a pause in typing before it asks the server.
    await waitFor(() => expect(calls.at(-1)!.url).toContain('search=clay'), { timeout: 5000 });
    await screen.findByRole('link', { name: 'Page 1 course · clay' });
    expect(Object.fromEntries(params())).toEqual({ page: '1', limit: '20', search: 'clay' });

    fireEvent.click(screen.getByRole('columnheader', { name: /Price/ }));
    await waitFor(() => expect(params().get('sortField')).toBe('unit_price'));
    expect(params().get('sortOrder')).toBe('asc');
    fireEvent.click(screen.getByRole('columnheader', { name: /Price/ }));
    await waitFor(() => expect(params().get('sortOrder')).toBe('desc'));

    fireEvent.click(screen.getByTitle('3'));
    await screen.findByRole('link', { name: 'Page 3 course · clay' });
    expect(Object.fromEntries(params())).toEqual({
      page: '3',
      limit: '20',
      search: 'clay',
      sortField: 'unit_price',
      sortOrder: 'desc',
    });
  }, 90000);

  it('opens the New Course drawer, and the list reads again when a course save refreshes the courses lists', async () => {
    let created = false;
    mockFetch({
      'GET /api/admin/activities': () =>
        listOf(
          created ? [summary({}), summary({ activity_id: 'c2', name: 'Glazing basics' })] : [summary({})],
        ),
    });
    const client = renderAt('/admin/courses');
    await screen.findByRole('link', { name: 'Wheel throwing' });
    fireEvent.click(screen.getByRole('button', { name: 'New course' }));
    expect(screen.getByRole('status', { name: 'open drawer' })).toHaveTextContent('course_builder');
    // What the courses remote's create hook does on success: the ['get', list path] key, whoever built the query.
    created = true;
    await act(() => client.invalidateQueries({ queryKey: ['get', '/api/admin/activities'] }));
    expect(await screen.findByRole('link', { name: 'Glazing basics' })).toBeInTheDocument();
  }, 90000);
});

/** The whole course as GET /api/admin/activities/{activity_id} answers it, in Paris. */
const DETAIL = courseDetail({
  activity_id: ID,
  name: 'Wheel throwing',
  activity_type: 'scheduled',
  price_type: 'standard',
  prices: [{ unit_price: 4500 }],
  images: ['/media/a.png'],
  Location: { address: '1 Clay St', timezone: { timeZoneId: 'Europe/Paris' } },
  listed: true,
});
const session = (id: string, start: string, badge: SessionRow['badge'], extra: Partial<SessionRow> = {}) =>
  courseSession({
    event_id: id,
    name: 'Wheel throwing',
    start,
    end: start,
    internal_short_description: null,
    capacity: 8,
    enrolled: badge === 'At capacity' ? 8 : 2,
    price: 4500,
    badge,
    Location: { address: '1 Clay St', timezone: { timeZoneId: 'Europe/Paris' } },
    schedule: [],
    ...extra,
  });
const sessionsOf = (sessions: SessionRow[]) =>
  okBody<'/api/admin/activities/{activity_id}/sessions', 'get'>({ sessions });

describe('Course detail page', () => {
  function detailRoutes() {
    return mockFetch({
      [`GET /api/admin/activities/${ID}`]: okBody<'/api/admin/activities/{activity_id}', 'get'>(DETAIL),
      [`GET /api/admin/activities/${ID}/sessions?include_past=false&limit=10000&include_cancelled=true`]: sessionsOf([
        session('e2', '2030-05-01T08:00:00Z', 'Open'),
        session('e3', '2030-05-08T08:00:00Z', 'At capacity'),
        session('e4', '2030-05-15T08:00:00Z', 'Cancelled'),
      ]),
      [`GET /api/admin/activities/${ID}/sessions?include_past=true&limit=10000&include_cancelled=true`]: sessionsOf([
        session('e1', '2020-05-01T08:00:00Z', 'Finished'),
        session('e2', '2030-05-01T08:00:00Z', 'Open'),
        session('e3', '2030-05-08T08:00:00Z', 'At capacity'),
      ]),
    });
  }

  it('shows upcoming sessions in the location zone with badges, and Show previous / Hide previous', async () => {
    const calls = detailRoutes();
    renderAt(`/admin/courses/${ID}`);
    const list = await screen.findByRole('list', { name: 'Sessions' });
    // 08:00 UTC is 10:00 in Paris in May.
    expect(within(list).getByText('Wed, May 1, 2030 10:00 AM CEST')).toBeInTheDocument();
    expect(within(list).getByText('Open')).toBeInTheDocument();
    expect(within(list).getByText('At capacity')).toBeInTheDocument();
    // A session the studio cancelled stays listed, badged (issue 23).
    expect(within(list).getByText('Cancelled')).toBeInTheDocument();
    expect(within(list).queryByText('Finished')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Show previous' }));
    expect(await screen.findByText('Finished')).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toContain(
      `/api/admin/activities/${ID}/sessions?include_past=true&limit=10000&include_cancelled=true`,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Hide previous' }));
    await waitFor(() => expect(screen.queryByText('Finished')).toBeNull());
    expect(screen.getByRole('button', { name: 'Show previous' })).toBeInTheDocument();
  });

  it('an appointment course says how students book it, not "No sessions", and offers no Schedule', async () => {
    mockFetch({
      [`GET /api/admin/activities/${ID}`]: okBody<'/api/admin/activities/{activity_id}', 'get'>({
        ...DETAIL,
        name: 'Private wheel lesson',
        activity_type: 'appointment',
        duration_mins: 90,
        start_time_increments_mins: 30,
        buffer_before_mins: 15,
        buffer_after_mins: 0,
        min_notice_mins: 1440,
        booking_window_days: 45,
      }),
      [`GET /api/admin/activities/${ID}/sessions?include_past=false&limit=10000&include_cancelled=true`]: sessionsOf([]),
    });
    renderAt(`/admin/courses/${ID}`);
    const booking = await screen.findByRole('region', { name: 'Booking' });
    expect(within(booking).getByText(/Students book this course by picking a time/)).toBeInTheDocument();
    expect(within(booking).getByText('1 h 30 min')).toBeInTheDocument();
    expect(within(booking).getByText('Every 30 min')).toBeInTheDocument();
    expect(within(booking).getByText('15 min')).toBeInTheDocument();
    expect(within(booking).getByText('None')).toBeInTheDocument();
    expect(within(booking).getByText('1 day')).toBeInTheDocument();
    expect(within(booking).getByText('How far ahead a student may book')).toBeInTheDocument();
    expect(within(booking).getByText('45 days')).toBeInTheDocument();
    expect(screen.queryByText('No sessions')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Schedule' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });

  it('opens Share, Edit, Schedule and the event drawer, and previews in a new tab', async () => {
    detailRoutes();
    renderAt(`/admin/courses/${ID}`);
    await screen.findByRole('list', { name: 'Sessions' });
    const open = () => screen.getByRole('status', { name: 'open drawer' });
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(open()).toHaveTextContent(`share {"mode":"course","activity_id":"${ID}"}`);
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    expect(open()).toHaveTextContent(`edit_course {"activity_id":"${ID}"}`);
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(open()).toHaveTextContent(`schedule_course {"activity_id":"${ID}"}`);
    fireEvent.click(screen.getByText('Wed, May 1, 2030 10:00 AM CEST'));
    expect(open()).toHaveTextContent(`event {"eventId":"e2","event_id":"e2","activity_id":"${ID}"}`);
    const preview = screen.getByRole('link', { name: 'Preview' });
    // The course page in the organization's store (the session's store_url), not a path of the admin.
    expect(preview).toHaveAttribute('href', `https://shop.demo.studio/activity/${ID}`);
    expect(preview).toHaveAttribute('target', '_blank');
    expect(preview).toHaveAttribute('rel', 'noopener');
  });
});
