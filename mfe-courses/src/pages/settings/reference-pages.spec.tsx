import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { errorBody, mockFetch, okBody, renderWithProviders } from '@studio/ui/testing';
import { InstructorsPage } from './instructors.page';
import { LocationsPage } from './locations.page';

const LOCATIONS = 'GET /api/admin/location';
const INSTRUCTORS = 'GET /api/admin/instructor';

const STUDIO = {
  location_id: '33333333-3333-4333-8333-333333333333',
  name: 'Studio',
  address: '1 Main St',
  timezone: 'America/New_York',
  online: true,
};
const SAVED_LOCATION = okBody<'/api/admin/location', 'post'>({ ...STUDIO, address: '12 Clay St' });

const ADA = {
  instructor_id: '44444444-4444-4444-8444-444444444444',
  first_name: 'Ada',
  last_name: 'Potter',
  photo_url: null,
};
const SAVED_INSTRUCTOR = okBody<'/api/admin/instructor', 'post'>(ADA);

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

const form = (name: string) => screen.getByRole('form', { name });

describe('Locations settings page', () => {
  it('lists the locations, online ones tagged', async () => {
    mockFetch({ [LOCATIONS]: okBody<'/api/admin/location', 'get'>({ locations: [STUDIO] }) });
    renderWithProviders(<LocationsPage />);
    expect(await screen.findByText('1 Main St')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Locations' })).toBeInTheDocument();
    expect(screen.getAllByText('Online')).toHaveLength(2); // the column's title and the tag
    expect(screen.getByText('Add a location')).toBeInTheDocument();
  });

  it("says 'No locations yet' when there are none, and an error with Retry when the load failed", async () => {
    mockFetch({ [LOCATIONS]: okBody<'/api/admin/location', 'get'>({ locations: [] }) });
    const { unmount } = renderWithProviders(<LocationsPage />);
    expect(await screen.findByText('No locations yet')).toBeInTheDocument();
    unmount();

    mockFetch({ [LOCATIONS]: errorBody(500, 'Something went wrong on our side') });
    renderWithProviders(<LocationsPage />);
    expect(await screen.findByText('Could not load the locations')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Retry/ })).toBeInTheDocument();
  });

  it('adds a location in the organization time zone, then empties the form', async () => {
    const calls = mockFetch({
      [LOCATIONS]: okBody<'/api/admin/location', 'get'>({ locations: [] }),
      'POST /api/admin/location': SAVED_LOCATION,
    });
    renderWithProviders(<LocationsPage />);
    await screen.findByText('No locations yet');
    fireEvent.change(within(form('Location')).getByLabelText('Address'), { target: { value: '12 Clay St' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add location' }));
    expect(await screen.findByText('Location saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: '',
      address: '12 Clay St',
      timezone: 'America/New_York',
      online: false,
    });
    await waitFor(() => expect(within(form('Location')).getByLabelText('Address')).toHaveValue(''));
  });

  it('does not send a location without an address', async () => {
    const calls = mockFetch({ [LOCATIONS]: okBody<'/api/admin/location', 'get'>({ locations: [] }) });
    renderWithProviders(<LocationsPage />);
    await screen.findByText('No locations yet');
    fireEvent.click(screen.getByRole('button', { name: 'Add location' }));
    expect(await screen.findByText('An address is required.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('edits a location with PUT, and Cancel goes back to adding', async () => {
    const calls = mockFetch({
      [LOCATIONS]: okBody<'/api/admin/location', 'get'>({ locations: [STUDIO] }),
      [`PUT /api/admin/location/${STUDIO.location_id}`]: SAVED_LOCATION,
    });
    renderWithProviders(<LocationsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit 1 Main St' }));
    expect(screen.getByText('Edit location')).toBeInTheDocument();
    const address = within(form('Location')).getByLabelText('Address');
    expect(address).toHaveValue('1 Main St');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Add a location')).toBeInTheDocument();
    expect(within(form('Location')).getByLabelText('Address')).toHaveValue('');

    fireEvent.click(screen.getByRole('button', { name: 'Edit 1 Main St' }));
    fireEvent.change(within(form('Location')).getByLabelText('Address'), { target: { value: '12 Clay St' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save location' }));
    expect(await screen.findByText('Location saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      name: 'Studio',
      address: '12 Clay St',
      timezone: 'America/New_York',
      online: true,
    });
    expect(await screen.findByText('Add a location')).toBeInTheDocument();
  });

  it('a failed save says so and keeps the form', async () => {
    mockFetch({
      [LOCATIONS]: okBody<'/api/admin/location', 'get'>({ locations: [] }),
      'POST /api/admin/location': errorBody(500, 'Something went wrong on our side'),
    });
    renderWithProviders(<LocationsPage />);
    await screen.findByText('No locations yet');
    fireEvent.change(within(form('Location')).getByLabelText('Address'), { target: { value: '12 Clay St' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add location' }));
    expect(await screen.findByText('Could not save. Please try again.')).toBeInTheDocument();
    expect(within(form('Location')).getByLabelText('Address')).toHaveValue('12 Clay St');
  });
});

describe('Instructors settings page', () => {
  it('lists the instructors; a failed load shows an error with Retry', async () => {
    mockFetch({ [INSTRUCTORS]: okBody<'/api/admin/instructor', 'get'>({ instructors: [ADA] }) });
    const { unmount } = renderWithProviders(<InstructorsPage />);
    expect(await screen.findByText('Ada Potter')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Instructors' })).toBeInTheDocument();
    expect(screen.getByText('Add an instructor')).toBeInTheDocument();
    unmount();

    mockFetch({ [INSTRUCTORS]: errorBody(500, 'Something went wrong on our side') });
    renderWithProviders(<InstructorsPage />);
    expect(await screen.findByText('Could not load the instructors')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Retry/ })).toBeInTheDocument();
  });

  it('adds an instructor without a photo', async () => {
    const calls = mockFetch({
      [INSTRUCTORS]: okBody<'/api/admin/instructor', 'get'>({ instructors: [] }),
      'POST /api/admin/instructor': SAVED_INSTRUCTOR,
    });
    renderWithProviders(<InstructorsPage />);
    expect(await screen.findByText('No instructors yet')).toBeInTheDocument();
    fireEvent.change(within(form('Instructor')).getByLabelText('First name'), { target: { value: 'Ada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add instructor' }));
    expect(await screen.findByText('Instructor saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      first_name: 'Ada',
      last_name: '',
      photo_url: null,
    });
  });

  it('edits an instructor with PUT; a failed save says so', async () => {
    const calls = mockFetch({
      [INSTRUCTORS]: okBody<'/api/admin/instructor', 'get'>({ instructors: [ADA] }),
      [`PUT /api/admin/instructor/${ADA.instructor_id}`]: errorBody(500, 'Something went wrong on our side'),
    });
    renderWithProviders(<InstructorsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Ada' }));
    expect(screen.getByText('Edit instructor')).toBeInTheDocument();
    expect(within(form('Instructor')).getByLabelText('Last name')).toHaveValue('Potter');
    fireEvent.click(screen.getByRole('button', { name: 'Save instructor' }));
    expect(await screen.findByText('Could not save. Please try again.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      first_name: 'Ada',
      last_name: 'Potter',
      photo_url: null,
    });
    expect(screen.getByText('Edit instructor')).toBeInTheDocument();
  });
});
