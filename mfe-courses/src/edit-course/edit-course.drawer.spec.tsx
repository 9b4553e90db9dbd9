import { fireEvent, screen, waitFor } from '@testing-library/react';
import { COURSE_MESSAGES as M, SYNC_MESSAGES } from '@studio/contracts';
import {
  courseDetail,
  errorBody,
  mockFetch,
  okBody,
  renderWithProviders,
  type MockAnswer,
  type RecordedCall,
} from '@studio/ui/testing';
import { type CourseDetail } from '@studio/ui';
import {
  INSTRUCTOR_ID,
  LOCATION_ID,
  REFERENCE_ROUTES,
  WAIVER_ID,
  pngFile,
  type,
  uploadFiles,
} from '../testing/course-fixtures';
import { EditCourseDrawer } from './edit-course.drawer';

// A whole antd form in jsdom on two busy cores.
jest.setTimeout(180000);

const ID = '6c4f8051-bd7e-4f90-8b32-4d5e6f708192';
const COURSE_PATH = `/api/admin/activities/${ID}`;

/** The builder's course, as GET /api/admin/activities/{activity_id} answers it: two images and a waiver. */
function course(overrides: Partial<CourseDetail> = {}): CourseDetail {
  return courseDetail({
    activity_id: ID,
    images: ['/media/a.png', '/media/b.png'],
    location_id: LOCATION_ID,
    instructor_id: INSTRUCTOR_ID,
    RequiredTemplates: [{ template_id: WAIVER_ID, name: 'Studio waiver' }],
    ...overrides,
  });
}

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

const answerCourse = (detail: CourseDetail) => okBody<'/api/admin/activities/{activity_id}', 'get'>(detail);
const answerSaved = (detail: CourseDetail) => okBody<'/api/admin/activities/{activity_id}', 'put'>(detail);

function routes(
  detail: CourseDetail = course(),
  put: (call: RecordedCall) => MockAnswer = () => answerSaved(detail),
) {
  return mockFetch({
    ...REFERENCE_ROUTES,
    [`GET ${COURSE_PATH}`]: answerCourse(detail),
    [`PUT ${COURSE_PATH}`]: put,
    'POST /api/admin/upload': okBody<'/api/admin/upload', 'post'>({ id: 'm3', url: '/media/c.png' }),
  });
}

async function renderEdit() {
  const close = jest.fn();
  renderWithProviders(<EditCourseDrawer data={{ activity_id: ID }} close={close} />);
  await screen.findByRole('form', { name: 'Edit Course' });
  return close;
}

const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
const puts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'PUT');

describe('Edit Course drawer', () => {
  it("loads the course into spec 001's sections with the Listed badge", async () => {
    routes();
    await renderEdit();
    expect(screen.getByLabelText('Name')).toHaveValue('Wheel throwing for beginners');
    expect(screen.getByLabelText('Price')).toHaveValue('45.00');
    expect(screen.getByText('Listed')).toBeInTheDocument();
    const titles = [...document.querySelectorAll('section[aria-label]')].map((s) =>
      s.getAttribute('aria-label'),
    );
    expect(titles).toEqual([
      'General',
      'Media',
      'Details',
      'Location',
      'Instructor',
      'Email confirmation',
      'Checkout Form',
      'Intake waiver',
      'Sync settings',
      'Scheduling settings',
    ]);
  });

  it('shows Unlisted when the course has no event at all', async () => {
    routes(course({ has_events: false, listed: false }));
    await renderEdit();
    expect(screen.getByText('Unlisted')).toBeInTheDocument();
  });

  it('shows the edit rules: name of at least 10, capacity at least 1, price above 0', async () => {
    const calls = routes();
    await renderEdit();
    type('Name', 'Pottery');
    type('Capacity', '0');
    type('Price', '0');
    type('Description', 'short');
    save();
    expect(await screen.findByText(M.nameMinEdit)).toBeInTheDocument();
    expect(screen.getByText(M.capacityEdit)).toBeInTheDocument();
    expect(screen.getByText(M.price)).toBeInTheDocument();
    expect(screen.getByText(M.descriptionMin)).toBeInTheDocument();
    type('Name', '');
    expect(await screen.findByText(M.nameRequired)).toBeInTheDocument();
    expect(puts(calls)).toHaveLength(0);
  });

  it('asks for the location, instructor, difficulty and material when missing', async () => {
    routes(
      course({
        location_id: null as unknown as string,
        instructor_id: null as unknown as string,
        level: '',
        category_id: 0,
      }),
    );
    await renderEdit();
    save();
    expect(await screen.findByText(M.locationSelect)).toBeInTheDocument();
    expect(screen.getByText(M.instructorSelect)).toBeInTheDocument();
    expect(screen.getByText(M.levelRequired)).toBeInTheDocument();
    expect(screen.getByText(M.materialEdit)).toBeInTheDocument();
  });

  it("saves the full body in cents, leaves out days that are not whole, toasts 'Course updated'", async () => {
    const calls = routes();
    const close = await renderEdit();
    type('Name', 'Wheel throwing, level two');
    type('Price', '52.5');
    type('Default days', '1.5');
    save();
    expect(await screen.findByText(M.updated)).toBeInTheDocument();
    const body = puts(calls)[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'Wheel throwing, level two',
      price: 5250,
      capacity: 8,
      level: 'Beginner',
      category_id: 4,
      required_waiver_id: WAIVER_ID,
      autoEmail: 'See you soon',
      images: ['/media/a.png', '/media/b.png'],
      default_days_apart: 1,
      sync_with_eventbrite: false,
    });
    expect(body).not.toHaveProperty('default_days');
    await waitFor(() => expect(close).toHaveBeenCalled());
  });

  it("an appointment course's booking window and own hours are read, checked and saved (issue 22)", async () => {
    const own = {
      weekly: {
        sun: [],
        mon: [{ start: '10:00', end: '14:00' }],
        tue: [],
        wed: [],
        thu: [],
        fri: [],
        sat: [],
      },
      overrides: [{ date: '2026-12-24', ranges: [] }],
    };
    const calls = routes(
      course({
        activity_type: 'appointment',
        single_party: true,
        booking_window_days: 45,
        availability: own,
      }),
    );
    const close = await renderEdit();
    const windowDays = screen.getByLabelText('How far ahead a student may book (days)');
    expect(windowDays).toHaveValue('45');
    expect(screen.getByRole('switch', { name: 'Own hours' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Monday' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Tuesday' })).not.toBeChecked();

    fireEvent.change(windowDays, { target: { value: '366' } });
    save();
    expect(await screen.findByText(M.bookingWindow)).toBeInTheDocument();
    expect(puts(calls)).toHaveLength(0);

    fireEvent.change(windowDays, { target: { value: '90' } });
    save();
    expect(await screen.findByText(M.updated)).toBeInTheDocument();
    expect(puts(calls)[0]?.body).toMatchObject({ booking_window_days: 90, availability: own });
    await waitFor(() => expect(close).toHaveBeenCalled());
  });

  it("turning Own hours off sends null: the course books its instructor's hours again", async () => {
    const own = {
      weekly: {
        sun: [],
        mon: [{ start: '10:00', end: '14:00' }],
        tue: [],
        wed: [],
        thu: [],
        fri: [],
        sat: [],
      },
      overrides: [],
    };
    const calls = routes(course({ activity_type: 'appointment', single_party: true, availability: own }));
    await renderEdit();
    fireEvent.click(screen.getByRole('switch', { name: 'Own hours' }));
    expect(screen.queryByRole('group', { name: 'Weekly hours' })).toBeNull();
    save();
    expect(await screen.findByText(M.updated)).toBeInTheDocument();
    expect(puts(calls)[0]?.body).toMatchObject({ availability: null });
  });

  it("turning Own hours on starts from the instructor's hours", async () => {
    const theirs = {
      weekly: {
        sun: [],
        mon: [],
        tue: [{ start: '08:00', end: '11:30' }],
        wed: [],
        thu: [],
        fri: [],
        sat: [],
      },
      overrides: [{ date: '2026-12-24', ranges: [] }],
    };
    const calls = mockFetch({
      ...REFERENCE_ROUTES,
      [`GET ${COURSE_PATH}`]: answerCourse(
        course({ activity_type: 'appointment', single_party: true, availability: null }),
      ),
      [`PUT ${COURSE_PATH}`]: answerSaved(course()),
      [`GET /api/admin/instructor/${INSTRUCTOR_ID}/availability`]: okBody<
        '/api/admin/instructor/{instructor_id}/availability',
        'get'
      >(theirs),
    });
    await renderEdit();
    expect(screen.queryByRole('group', { name: 'Weekly hours' })).toBeNull();
    fireEvent.click(screen.getByRole('switch', { name: 'Own hours' }));
    expect(await screen.findByRole('checkbox', { name: 'Tuesday' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Monday' })).not.toBeChecked();
    save();
    expect(await screen.findByText(M.updated)).toBeInTheDocument();
    expect(puts(calls)[0]?.body).toMatchObject({ availability: theirs });
  });

  it('a scheduled course shows no booking window and no own hours', async () => {
    routes();
    await renderEdit();
    expect(screen.queryByLabelText('How far ahead a student may book (days)')).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Own hours' })).toBeNull();
  });

  it("toasts 'Error updating course' and shows the form error when the save fails", async () => {
    routes(course(), (call) =>
      (call.body as { name?: string }).name ? errorBody(500, 'Internal') : answerSaved(course()),
    );
    const close = await renderEdit();
    save();
    expect(await screen.findByText(M.updateFailed)).toBeInTheDocument();
    expect(screen.getByText(M.formError).closest('[role="alert"]')).not.toBeNull();
    expect(close).not.toHaveBeenCalled();
  });

  it('saves an uploaded image at once with an images-only PUT', async () => {
    const calls = routes();
    await renderEdit();
    uploadFiles([pngFile()]);
    await screen.findByRole('img', { name: 'Course image 3' });
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0].body).toEqual({ images: ['/media/a.png', '/media/b.png', '/media/c.png'] });
  });

  it('saves a removal at once with an images-only PUT', async () => {
    const calls = routes();
    await renderEdit();
    fireEvent.click(screen.getByRole('button', { name: 'Remove image 1' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0].body).toEqual({ images: ['/media/b.png'] });
  });

  it('a failed upload shows no message and adds no image', async () => {
    const calls = mockFetch({
      ...REFERENCE_ROUTES,
      [`GET ${COURSE_PATH}`]: answerCourse(course()),
      'POST /api/admin/upload': errorBody(415, 'Not an image'),
    });
    await renderEdit();
    uploadFiles([pngFile()]);
    await waitFor(() => expect(calls.some((c) => c.url === '/api/admin/upload')).toBe(true));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload image' })).not.toBeDisabled());
    expect(screen.getAllByRole('img', { name: /Course image/ })).toHaveLength(2);
    expect(screen.queryByText('Not an image')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(puts(calls)).toHaveLength(0);
  });

  it('removing the last image sends nothing and shows the image rule', async () => {
    const calls = routes(course({ images: ['/media/a.png'] }));
    await renderEdit();
    fireEvent.click(screen.getByRole('button', { name: 'Remove image 1' }));
    expect(await screen.findByText(M.imagesRequired)).toBeInTheDocument();
    expect(puts(calls)).toHaveLength(0);
  });

  it('removing every checkout field and saving sends an empty list, so the form is removed', async () => {
    const FORM_ID = '7d5f9162-ce8f-4a01-9c32-5e6f70819203';
    const withForm = course({
      required_form_id: FORM_ID,
      RequiredForm: {
        fields: [
          {
            id: 'f1',
            field_key: 'f1',
            type: 'email',
            label: 'Email',
            placeholder: '',
            description: '',
            required: true,
            options: [],
          },
          {
            id: 'f2',
            field_key: 'f2',
            type: 'text',
            label: 'Allergies',
            placeholder: '',
            description: '',
            required: false,
            options: [],
          },
        ],
      },
    });
    const calls = routes(withForm);
    const close = await renderEdit();
    expect(screen.getByLabelText('Checkout field 1')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Remove field 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove field 1' }));
    expect(screen.queryByLabelText('Checkout field 1')).toBeNull();
    save();
    expect(await screen.findByText(M.updated)).toBeInTheDocument();
    expect(puts(calls)[0]?.body).toMatchObject({ checkoutFormFields: [] });
    await waitFor(() => expect(close).toHaveBeenCalled());
  });

  it('re-saves a free course: no price field, no price rule, priceType free in the body', async () => {
    const calls = routes(course({ price_type: 'free', prices: [{ unit_price: 0 }] }));
    const close = await renderEdit();
    expect(screen.getByRole('radio', { name: 'Free' })).toBeChecked();
    expect(screen.queryByLabelText('Price')).toBeNull();
    type('Capacity', '20');
    save();
    expect(await screen.findByText(M.updated)).toBeInTheDocument();
    expect(screen.queryByText(M.price)).toBeNull();
    const body = puts(calls)[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ priceType: 'free', capacity: 20 });
    expect(body).not.toHaveProperty('price');
    await waitFor(() => expect(close).toHaveBeenCalled());
  });

  it('turning a free course standard asks for its price', async () => {
    const calls = routes(course({ price_type: 'free', prices: [{ unit_price: 0 }] }));
    await renderEdit();
    fireEvent.click(screen.getByRole('radio', { name: 'Standard' }));
    expect(screen.getByLabelText('Price')).toHaveValue('');
    save();
    expect(await screen.findByText(M.price)).toBeInTheDocument();
    expect(puts(calls)).toHaveLength(0);
    type('Price', '30');
    save();
    expect(await screen.findByText(M.updated)).toBeInTheDocument();
    expect(puts(calls)[0]?.body).toMatchObject({ priceType: 'standard', price: 3000 });
  });

  it('asks for an event when syncing with the ticketing service, and says why its events cannot be listed', async () => {
    const calls = mockFetch({
      ...REFERENCE_ROUTES,
      [`GET ${COURSE_PATH}`]: answerCourse(course()),
      'GET /api/admin/partners/eventbrite/events': errorBody(409, SYNC_MESSAGES.notConnected('eventbrite')),
    });
    await renderEdit();
    expect(calls.some((c) => c.url.includes('/api/admin/partners/eventbrite/events'))).toBe(false);
    fireEvent.click(screen.getByRole('switch', { name: 'Sync with Eventbrite' }));
    expect(await screen.findByText(SYNC_MESSAGES.notConnected('eventbrite'))).toBeInTheDocument();
    save();
    expect(await screen.findByText(M.eventbriteEvent)).toBeInTheDocument();
    expect(puts(calls)).toHaveLength(0);
  });

  it("links the course to one of the connected organization's Eventbrite events", async () => {
    const calls = mockFetch({
      ...REFERENCE_ROUTES,
      [`GET ${COURSE_PATH}`]: answerCourse(course()),
      [`PUT ${COURSE_PATH}`]: () => answerSaved(course()),
      'GET /api/admin/partners/eventbrite/events': okBody<'/api/admin/partners/eventbrite/events', 'get'>({
        events: [{ id: '7001', name: 'Wheel night', start: '2031-01-10T23:00:00.000Z', status: 'live' }],
        continuation: null,
      }),
    });
    await renderEdit();
    fireEvent.click(screen.getByRole('switch', { name: 'Sync with Eventbrite' }));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Eventbrite event' }));
    fireEvent.click(await screen.findByText(/^Wheel night/));
    save();
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]?.body).toMatchObject({ sync_with_eventbrite: true, eventbrite_event_id: '7001' });
  });
});
