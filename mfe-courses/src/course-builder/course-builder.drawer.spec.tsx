import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { COURSE_MESSAGES as M } from '@studio/contracts';
import { courseQueries, useQuery } from '@studio/ui';
import { courseSummary, errorBody, mockFetch, okBody, renderWithProviders } from '@studio/ui/testing';
import {
  INSTRUCTOR_ID,
  LOCATION_ID,
  REFERENCE_ROUTES,
  pickOption,
  pngFile,
  type,
  uploadFiles,
} from '../testing/course-fixtures';
import { CourseBuilderDrawer } from './course-builder.drawer';

const IMAGE_URL = '/api/media/org/pot.png';
// Filling the whole drawer clicks through a dozen antd inputs: slow in jsdom on two busy cores.
jest.setTimeout(180000);

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

function routes(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    ...REFERENCE_ROUTES,
    'POST /api/admin/upload': okBody<'/api/admin/upload', 'post'>({ id: 'm1', url: IMAGE_URL }),
    'POST /api/admin/activities': okBody<'/api/admin/activities', 'post'>({ activity_id: 'a1' }),
    'POST /api/slack-alert-new-course': okBody<'/api/slack-alert-new-course', 'post'>({ queued: true }),
    ...extra,
  });
}

function renderBuilder() {
  const close = jest.fn();
  renderWithProviders(<CourseBuilderDrawer data={{}} close={close} />);
  return close;
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create course' }));

async function fillValidCourse() {
  type('Name', 'Wheel throwing');
  type('Description', 'Learn to centre clay on the wheel.');
  type('Price', '45.99');
  type('Capacity', '8');
  uploadFiles([pngFile()]);
  await screen.findByRole('img', { name: 'Course image 1' });
  await pickOption('Location', 'Main studio, 1 Clay St');
  await pickOption('Instructor', 'Ada Potter');
  await pickOption('Category', 'Ceramics');
  await pickOption('Level', 'Beginner');
}

describe('New Course drawer', () => {
  it("shows its sections in spec 000's order", () => {
    routes();
    renderBuilder();
    const titles = [...document.querySelectorAll('section[aria-label]')].map((s) =>
      s.getAttribute('aria-label'),
    );
    expect(titles).toEqual([
      'General',
      'Pricing',
      'Media',
      'Location',
      'Instructor',
      'Details',
      'Email confirmation',
      'Checkout Form',
      'Intake waiver',
      'Cancellations and Rescheduling',
      'Course Type',
    ]);
    // A new tab keeps the half-filled form (issue 7 §7).
    expect(screen.getByRole('link', { name: 'Add a waiver' })).toHaveAttribute(
      'href',
      '/admin/waivers/new?then=close',
    );
    expect(screen.getByRole('link', { name: 'Add a waiver' })).toHaveAttribute('target', '_blank');
  });

  it('shows every rule message on an empty submit and sends nothing', async () => {
    const calls = routes();
    renderBuilder();
    submit();
    for (const text of [
      M.nameRequired,
      M.descriptionMin,
      M.imagesRequired,
      M.price,
      M.locationRequired,
      M.instructorRequired,
      M.capacityCreate,
      M.categoryCreate,
      M.levelRequired,
    ]) {
      expect(await screen.findByText(text)).toBeInTheDocument();
    }
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/admin/activities')).toBe(false);
  });

  it('refuses a short description, a price of 0 and a capacity of 1', async () => {
    routes();
    renderBuilder();
    type('Description', 'Too short');
    type('Price', '0');
    type('Capacity', '1');
    submit();
    expect(await screen.findByText(M.descriptionMin)).toBeInTheDocument();
    expect(screen.getByText(M.price)).toBeInTheDocument();
    expect(screen.getByText(M.capacityCreate)).toBeInTheDocument();
  });

  it('creates the course with the price in cents, toasts, alerts the chat and closes', async () => {
    const calls = routes();
    const close = renderBuilder();
    await fillValidCourse();
    submit();
    expect(await screen.findByText(M.created)).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST' && c.url === '/api/admin/activities');
    expect(post?.body).toMatchObject({
      name: 'Wheel throwing',
      price: 4599,
      priceType: 'standard',
      capacity: 8,
      images: [IMAGE_URL],
      location_id: LOCATION_ID,
      instructor_id: INSTRUCTOR_ID,
      material: 'Ceramics',
      level: 'Beginner',
      cancel_policy_id: 3,
      reschedule_policy_id: 4,
      activity_type: 'scheduled',
      formCollectionType: 'order',
      default_days: 1,
      default_days_apart: 1,
      default_daily_mins: 60,
      default_start_time: '12:00',
    });
    await waitFor(() => expect(close).toHaveBeenCalled());
    expect(calls.some((c) => c.url === '/api/slack-alert-new-course')).toBe(true);
  });

  it('the created course shows in the courses list behind the drawer', async () => {
    let created = false;
    routes({
      'GET /api/admin/activities': () =>
        okBody<'/api/admin/activities', 'get'>({
          activities: created ? [courseSummary({ activity_id: 'a1', name: 'Wheel throwing' })] : [],
          totalCount: created ? 1 : 0,
          currentPage: 1,
          itemsPerPage: 20,
        }),
      'POST /api/admin/activities': () => {
        created = true;
        return okBody<'/api/admin/activities', 'post'>({ activity_id: 'a1' });
      },
    });
    /** The shell's Courses page, reduced to its rows' names. */
    function CoursesBehind() {
      const list = useQuery(courseQueries.list({ page: 1, limit: 20 }));
      if (!list.data) return null;
      return (
        <ul aria-label="Courses behind">
          {list.data.activities.length === 0 ? <li>No courses yet</li> : null}
          {list.data.activities.map((a) => (
            <li key={a.activity_id}>{a.name}</li>
          ))}
        </ul>
      );
    }
    renderWithProviders(
      <>
        <CoursesBehind />
        <CourseBuilderDrawer data={{}} close={jest.fn()} />
      </>,
    );
    const behind = await screen.findByRole('list', { name: 'Courses behind' });
    expect(within(behind).getByText('No courses yet')).toBeInTheDocument();
    await fillValidCourse();
    submit();
    expect(await within(behind).findByText('Wheel throwing')).toBeInTheDocument();
  });

  it("toasts 'Error adding course' and shows the server's field message when the API refuses", async () => {
    routes({
      'POST /api/admin/activities': errorBody(400, 'Validation failed', { name: 'That name is taken' }),
    });
    const close = renderBuilder();
    await fillValidCourse();
    submit();
    expect(await screen.findByText(M.createFailed)).toBeInTheDocument();
    expect(await screen.findByText('That name is taken')).toBeInTheDocument();
    expect(close).not.toHaveBeenCalled();
  });

  it('a failed upload shows no message and adds no image; a non-image is not even sent, and says why', async () => {
    const calls = routes({
      'POST /api/admin/upload': errorBody(500, 'boom'),
    });
    renderBuilder();
    uploadFiles([pngFile()]);
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/admin/upload')).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload image' })).not.toBeDisabled());
    uploadFiles([new File(['hello'], 'notes.txt', { type: 'text/plain' })]);
    await act(async () => undefined);
    expect(calls.filter((c) => c.url === '/api/admin/upload')).toHaveLength(1);
    expect(screen.queryByRole('img', { name: /Course image/ })).toBeNull();
    // Refused before any upload, the file says why (issue 25); the failed upload itself said nothing.
    expect(screen.getByRole('alert')).toHaveTextContent('notes.txt is not a PNG, JPEG or GIF image.');
    expect(screen.queryByText('boom')).toBeNull();
  });

  it('uploads, moves and removes images', async () => {
    let n = 0;
    routes({
      'POST /api/admin/upload': () =>
        okBody<'/api/admin/upload', 'post'>({ id: `m${++n}`, url: `/media/${n}.png` }),
    });
    renderBuilder();
    uploadFiles([pngFile('a.png'), pngFile('b.png')]);
    await screen.findByRole('img', { name: 'Course image 2' });
    const srcs = () => screen.getAllByRole('img', { name: /Course image/ }).map((i) => i.getAttribute('src'));
    expect(srcs()).toEqual(['/media/1.png', '/media/2.png']);
    fireEvent.click(screen.getByRole('button', { name: 'Move image 2 left' }));
    expect(srcs()).toEqual(['/media/2.png', '/media/1.png']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove image 1' }));
    expect(srcs()).toEqual(['/media/1.png']);
  });

  it('enables appointment mode only once single party is on, then shows scheduling settings', async () => {
    routes();
    renderBuilder();
    const appointment = screen.getByRole('radio', { name: 'Appointment (students set the time)' });
    expect(appointment).toBeDisabled();
    expect(screen.queryByRole('region', { name: 'Scheduling settings' })).toBeNull();
    fireEvent.click(screen.getByRole('switch', { name: 'Single party course' }));
    expect(appointment).not.toBeDisabled();
    fireEvent.click(appointment);
    expect(await screen.findByRole('region', { name: 'Scheduling settings' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Buffer before' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('switch', { name: 'Single party course' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Scheduling settings' })).toBeNull());
  });

  it('creates an appointment course with its booking window and its own hours (issue 22)', async () => {
    // The instructor has no hours yet: own hours start from weekdays 9 to 5.
    const calls = routes({
      [`GET /api/admin/instructor/${INSTRUCTOR_ID}/availability`]: okBody<
        '/api/admin/instructor/{instructor_id}/availability',
        'get'
      >({ weekly: { sun: [], mon: [], tue: [], wed: [], thu: [], fri: [], sat: [] }, overrides: [] }),
    });
    renderBuilder();
    await fillValidCourse();
    fireEvent.click(screen.getByRole('switch', { name: 'Single party course' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Appointment (students set the time)' }));
    const windowDays = await screen.findByLabelText('How far ahead a student may book (days)');
    expect(windowDays).toHaveValue('60');
    // Off: the instructor's hours, no editor.
    expect(screen.getByRole('switch', { name: 'Own hours' })).not.toBeChecked();
    expect(screen.queryByRole('group', { name: 'Weekly hours' })).toBeNull();
    fireEvent.change(windowDays, { target: { value: '0' } });
    submit();
    expect(await screen.findByText(M.bookingWindow)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/admin/activities')).toBe(false);

    fireEvent.change(windowDays, { target: { value: '30' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Own hours' }));
    expect(await screen.findByRole('group', { name: 'Weekly hours' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Friday' }));
    submit();
    expect(await screen.findByText(M.created)).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST' && c.url === '/api/admin/activities');
    const day = [{ start: '09:00', end: '17:00' }];
    expect(post?.body).toMatchObject({
      activity_type: 'appointment',
      single_party: true,
      booking_window_days: 30,
      availability: {
        weekly: { sun: [], mon: day, tue: day, wed: day, thu: day, fri: [], sat: [] },
        overrides: [],
      },
    });
  });

  it('shows volume and pay-what-you-want pricing disabled and hides the price for free courses', () => {
    routes();
    renderBuilder();
    expect(screen.getByRole('radio', { name: 'Volume' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Pay what you want' })).toBeDisabled();
    fireEvent.click(screen.getByRole('radio', { name: 'Free' }));
    expect(screen.queryByLabelText('Price')).toBeNull();
  });
});

describe('Checkout form builder', () => {
  async function addField(label: string) {
    fireEvent.click(screen.getByRole('button', { name: 'Add field' }));
    const item = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('.ant-dropdown-menu-item')].filter(
        (el) => el.textContent === label,
      );
      if (!found.length) throw new Error(`no menu item ${label}`);
      return found[found.length - 1];
    });
    fireEvent.click(item);
  }

  const menuItem = (label: string) =>
    [...document.querySelectorAll<HTMLElement>('.ant-dropdown-menu-item')].find(
      (el) => el.textContent === label,
    );

  it('lets name, email and phone be added once each', async () => {
    routes();
    renderBuilder();
    await addField('Name');
    await addField('Email');
    fireEvent.click(screen.getByRole('button', { name: 'Add field' }));
    await waitFor(() => expect(menuItem('Name')).toHaveClass('ant-dropdown-menu-item-disabled'));
    expect(menuItem('Email')).toHaveClass('ant-dropdown-menu-item-disabled');
    expect(menuItem('Phone')).not.toHaveClass('ant-dropdown-menu-item-disabled');
    expect(menuItem('Short text')).not.toHaveClass('ant-dropdown-menu-item-disabled');
  });

  it("starts select and radio fields with an 'Option 1' option and new options read 'Option 1'", async () => {
    routes();
    renderBuilder();
    await addField('Dropdown');
    const card = screen.getByLabelText('Checkout field 1');
    expect(within(card).getByLabelText('Field 1 option 1')).toHaveValue('Option 1');
    fireEvent.click(within(card).getByRole('button', { name: 'Add option' }));
    expect(within(card).getByLabelText('Field 1 option 2')).toHaveValue('Option 1');
  });

  it('renders description links safely and sends the fields with the per-ticket choice', async () => {
    const calls = routes();
    renderBuilder();
    await addField('Short text');
    fireEvent.change(screen.getByLabelText('Description', { selector: 'textarea[id$="-description"]' }), {
      target: { value: 'Read [the rules](https://studio.example/rules) or [this](javascript:alert(1))' },
    });
    const preview = screen.getByTestId('description-preview');
    expect(within(preview).getByRole('link', { name: 'the rules' })).toHaveAttribute(
      'href',
      'https://studio.example/rules',
    );
    expect(within(preview).queryByRole('link', { name: 'this' })).toBeNull();
    expect(preview).toHaveTextContent('[this](javascript:alert(1))');
    fireEvent.click(screen.getByRole('radio', { name: 'Once per ticket' }));
    await fillValidCourse();
    submit();
    await screen.findByText(M.created);
    const post = calls.find((c) => c.method === 'POST' && c.url === '/api/admin/activities');
    expect(post?.body).toMatchObject({
      formCollectionType: 'ticket',
      checkoutFormFields: [{ type: 'text', label: 'Short text', required: false, options: [] }],
    });
  });

  it('shows the option rule when a select field has no option left', async () => {
    routes();
    renderBuilder();
    await addField('Radio buttons');
    fireEvent.click(screen.getByRole('button', { name: 'Remove field 1 option 1' }));
    submit();
    expect(await screen.findByText(M.fieldOptions)).toBeInTheDocument();
  });
});
