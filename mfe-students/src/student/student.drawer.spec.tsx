import { fireEvent, screen, waitFor } from '@testing-library/react';
import { errorBody, mockFetch, okBody, renderWithProviders, type MockAnswer } from '@studio/ui/testing';
import type { StudentDetail } from '@studio/ui';
import { StudentDrawer } from './student.drawer';

/** What GET /api/admin/student/{student_id} answers: an invented field fails the typecheck. */
const STUDENT: StudentDetail = {
  student_id: 's1',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '+1 555 0100',
  user_id: 'u1',
  created_at: '2025-01-05T15:00:00Z',
};

const answerStudent = (student: StudentDetail = STUDENT) =>
  okBody<'/api/admin/student/{student_id}', 'get'>(student);

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

function routes(student: StudentDetail = STUDENT, extra: Record<string, MockAnswer> = {}) {
  return mockFetch({ 'GET /api/admin/student/s1': answerStudent(student), ...extra });
}

async function renderDrawer(options: { signOut?: () => Promise<void> } = {}) {
  renderWithProviders(<StudentDrawer data={{ student_id: 's1' }} close={jest.fn()} />, undefined, options);
  await screen.findByRole('heading', { name: 'Ada Lovelace' }, { timeout: 3000 });
}

describe('StudentDrawer', () => {
  it('shows what the API answers: name, badge, email, phone and first seen', async () => {
    routes();
    await renderDrawer();
    expect(screen.getByText('Signed up')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('+1 555 0100')).toBeInTheDocument();
    expect(screen.getByText('05 Jan, 2025')).toBeInTheDocument();
  });

  it('says loyalty points, waivers and orders are not available yet, and asks the API for nothing else', async () => {
    const calls = routes();
    await renderDrawer();
    expect(screen.getByText('Loyalty points are not available yet.')).toBeInTheDocument();
    expect(screen.getByText("The student's orders are not available yet.")).toBeInTheDocument();
    fireEvent.click(screen.getByText('Waivers'));
    expect(await screen.findByText("The student's waivers are not available yet.")).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/admin/student/s1']);
  });

  it("says 'Not signed up' and hides the phone for a student without an account", async () => {
    routes({ ...STUDENT, user_id: null, phone: null });
    await renderDrawer();
    expect(screen.getByText('Not signed up')).toBeInTheDocument();
    expect(screen.queryByText('Phone')).not.toBeInTheDocument();
  });

  it('a failed load shows the error state, and Retry loads the student', async () => {
    let fail = true;
    mockFetch({
      'GET /api/admin/student/s1': () =>
        fail ? errorBody(500, 'Something went wrong on our side') : answerStudent(),
    });
    renderWithProviders(<StudentDrawer data={{ student_id: 's1' }} close={jest.fn()} />);
    expect(await screen.findByText('Could not load this student')).toBeInTheDocument();
    expect(screen.queryByText('No data')).not.toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
  });

  it('a 401 signs the user out', async () => {
    mockFetch({ 'GET /api/admin/student/s1': errorBody(401, 'You must be signed in') });
    const signOut = jest.fn(async () => undefined);
    renderWithProviders(<StudentDrawer data={{ student_id: 's1' }} close={jest.fn()} />, undefined, {
      signOut,
    });
    await waitFor(() => expect(signOut).toHaveBeenCalled());
  });

  it('edits the name with PUT {first_name, last_name}', async () => {
    // The server keeps the new name: the drawer's reload after the save reads it back.
    let stored = STUDENT;
    const calls = mockFetch({
      'GET /api/admin/student/s1': () => answerStudent(stored),
      'PUT /api/admin/student/s1': (call) => {
        stored = { ...stored, ...(call.body as Pick<StudentDetail, 'first_name' | 'last_name'>) };
        return okBody<'/api/admin/student/{student_id}', 'put'>(stored);
      },
    });
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Edit name' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'First name' }), { target: { value: 'Augusta' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name updated successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      first_name: 'Augusta',
      last_name: 'Lovelace',
    });
    expect(await screen.findByRole('heading', { name: 'Augusta Lovelace' })).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
  });

  it("toasts 'Failed to update name' when the rename fails", async () => {
    routes(STUDENT, { 'PUT /api/admin/student/s1': errorBody(500, 'x') });
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Edit name' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update name')).toBeInTheDocument();
  });
});
