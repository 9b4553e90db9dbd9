import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { STUDENT_MESSAGES } from '@studio/contracts';
import {
  errorBody,
  mockFetch,
  okBody,
  renderWithProviders,
  type OkBodyOf,
  type RecordedCall,
} from '@studio/ui/testing';
import { useDrawer } from '@studio/ui';
import { StudentsPage } from './students.page';

type StudentList = OkBodyOf<'/api/admin/student', 'get'>;
type Row = StudentList['students'][number];
const studentList = (page: StudentList) => okBody<'/api/admin/student', 'get'>(page);

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

const student = (n: number, overrides: Partial<Row> = {}): Row => ({
  student_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  first_name: `Ann${n}`,
  last_name: 'Potter',
  email: `ann${n}@clay.test`,
  phone: null,
  user_id: null,
  created_at: '2026-03-14T23:30:00Z',
  ...overrides,
});

function OpenDrawer() {
  const { current } = useDrawer();
  const { pathname } = useLocation();
  return (
    <>
      <output aria-label="open drawer">
        {current ? `${current.type} ${JSON.stringify(current.data)}` : ''}
      </output>
      <output aria-label="path">{pathname}</output>
    </>
  );
}

function renderPage() {
  renderWithProviders(
    <MemoryRouter initialEntries={['/admin/students']}>
      <OpenDrawer />
      <Routes>
        <Route path="/admin/students" element={<StudentsPage />} />
        <Route path="/admin/students/:studentId" element={<StudentsPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const params = (call: RecordedCall) => Object.fromEntries(new URL(call.url, 'http://x').searchParams);

describe('Students page', () => {
  it('lists students from the API, searches on the server and opens the student drawer on a row click', async () => {
    const calls = mockFetch({
      'GET /api/admin/student': ({ url }) => {
        const q = new URL(url, 'http://x').searchParams;
        const rows = q.get('search')
          ? [student(7, { first_name: 'Zelda', user_id: 'u1' })]
          : [student(1), student(2)];
        return studentList({
          students: rows,
          totalCount: q.get('search') ? 1 : 42,
          currentPage: 1,
          itemsPerPage: 20,
          next_cursor: null,
        });
      },
    });
    renderPage();
    expect(await screen.findByText('ann1@clay.test')).toBeInTheDocument();
    expect(screen.getByText('42 students')).toBeInTheDocument();
    expect(params(calls[0])).toEqual({ page: '1', limit: '20' });
    // Not a pasted-id box.
    expect(screen.queryByLabelText('Student id')).not.toBeInTheDocument();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search students' }), {
      target: { value: 'zel' },
    });
    await waitFor(() => expect(params(calls.at(-1)!)).toEqual({ page: '1', limit: '20', search: 'zel' }), {
      timeout: 5000,
    });
    const row = (await screen.findByText('Zelda Potter')).closest('tr')!;
    expect(within(row).getByText('Signed up')).toBeInTheDocument();

    fireEvent.click(row);
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'path' })).toHaveTextContent(
        `/admin/students/${student(7).student_id}`,
      ),
    );
    expect(screen.getByRole('status', { name: 'open drawer' })).toHaveTextContent(
      `student {"student_id":"${student(7).student_id}"`,
    );
  }, 90000);

  it('pages on the server', async () => {
    const calls = mockFetch({
      'GET /api/admin/student': ({ url }) => {
        const page = Number(new URL(url, 'http://x').searchParams.get('page'));
        const cursor = new URL(url, 'http://x').searchParams.get('cursor');
        return studentList({
          students: [student(page)],
          totalCount: cursor ? null : 95,
          currentPage: page,
          itemsPerPage: 20,
          next_cursor: `after-${page}`,
        });
      },
    });
    renderPage();
    await screen.findByText('ann1@clay.test');
    fireEvent.click(screen.getByTitle('3'));
    expect(await screen.findByText('ann3@clay.test')).toBeInTheDocument();
    expect(params(calls.at(-1)!)).toEqual({ page: '3', limit: '20' });
    // The page after one shown starts after its last student (cursor), and the count stays.
    fireEvent.click(screen.getByTitle('4'));
    expect(await screen.findByText('ann4@clay.test')).toBeInTheDocument();
    expect(params(calls.at(-1)!)).toEqual({ page: '4', limit: '20', cursor: 'after-3' });
    expect(screen.getByText('95 students')).toBeInTheDocument();
  }, 90000);

  it('adds a New student through the API and shows them; a taken email shows the server message on the field', async () => {
    let taken = true;
    const calls = mockFetch({
      'GET /api/admin/student': ({ url }) => {
        const search = new URL(url, 'http://x').searchParams.get('search');
        const rows =
          search === 'new@clay.test'
            ? [student(9, { first_name: 'Nova', last_name: 'Kiln', email: 'new@clay.test' })]
            : [student(1)];
        return studentList({
          students: rows,
          totalCount: rows.length,
          currentPage: 1,
          itemsPerPage: 20,
          next_cursor: null,
        });
      },
      'POST /api/admin/student': () => {
        if (taken) {
          taken = false;
          return errorBody(409, STUDENT_MESSAGES.emailTaken, { email: STUDENT_MESSAGES.emailTaken });
        }
        return okBody<'/api/admin/student', 'post'>(
          student(9, { first_name: 'Nova', last_name: 'Kiln', email: 'new@clay.test' }),
        );
      },
    });
    renderPage();
    await screen.findByText('ann1@clay.test');
    fireEvent.click(screen.getByRole('button', { name: /New student/ }));
    const dialog = await screen.findByRole('dialog');

    // The contracts rules run in the form first: nothing is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add student' }));
    expect(await within(dialog).findByText(STUDENT_MESSAGES.firstNameRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(STUDENT_MESSAGES.email)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('First name'), { target: { value: 'Nova' } });
    fireEvent.change(within(dialog).getByLabelText('Last name'), { target: { value: 'Kiln' } });
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'new@clay.test' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add student' }));
    expect(await within(dialog).findByText(STUDENT_MESSAGES.emailTaken)).toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add student' }));
    expect(await screen.findByText('Nova Kiln')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').at(-1)!.body).toEqual({
      first_name: 'Nova',
      last_name: 'Kiln',
      email: 'new@clay.test',
    });
    expect(await screen.findByText(STUDENT_MESSAGES.created)).toBeInTheDocument();
  }, 90000);
});
