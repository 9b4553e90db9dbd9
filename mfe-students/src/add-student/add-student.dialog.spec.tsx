import { fireEvent, screen, waitFor } from '@testing-library/react';
import { errorBody, mockFetch, okBody, renderWithProviders, type OkBodyOf } from '@studio/ui/testing';
import { SCHEDULING_MESSAGES, STUDENT_SEARCH_LIMIT, WALLET_MESSAGES } from '@studio/contracts';
import { AddStudentDialog } from './add-student.dialog';

const EVENT_ID = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
type StudentList = OkBodyOf<'/api/admin/student', 'get'>;

const ADA: StudentList['students'][number] = {
  student_id: '55555555-5555-4555-8555-555555555555',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: null,
  user_id: null,
  created_at: '2026-01-01T00:00:00Z',
};
/** The picker's search answer: one page holding Ada. */
const STUDENTS = okBody<'/api/admin/student', 'get'>({
  students: [ADA],
  totalCount: 1,
  currentPage: 1,
  itemsPerPage: STUDENT_SEARCH_LIMIT,
  next_cursor: null,
});

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

async function pickAda() {
  const picker = screen.getByRole('combobox', { name: 'Student' });
  fireEvent.mouseDown(picker);
  fireEvent.change(picker, { target: { value: 'ada' } });
  fireEvent.click(await screen.findByText('Ada Lovelace (ada@example.com)'));
}

describe('AddStudentDialog', () => {
  it("says 'Please select a student.' when none is picked and calls nothing", async () => {
    const calls = mockFetch({ 'GET /api/admin/student': STUDENTS });
    renderWithProviders(<AddStudentDialog data={{ event_id: EVENT_ID }} close={jest.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Enroll directly' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.selectStudent)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('searches on the server and enrolls the picked student directly', async () => {
    const onDone = jest.fn();
    const close = jest.fn();
    const calls = mockFetch({
      'GET /api/admin/student': STUDENTS,
      [`POST /api/admin/orders/enroll/${ADA.student_id}`]: okBody<
        '/api/admin/orders/enroll/{student_id}',
        'post'
      >({
        enrollment_id: 'x',
        order_id: 'o',
        order_number: 7,
        total: 0,
        source: 'workbench',
      }),
    });
    renderWithProviders(<AddStudentDialog data={{ event_id: EVENT_ID, onDone }} close={close} />);
    await pickAda();
    await waitFor(() => expect(calls.some((c) => c.url.includes('search=ada'))).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Enroll directly' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.studentAdded)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ event_id: EVENT_ID });
    expect(onDone).toHaveBeenCalled();
    expect(close).toHaveBeenCalled();
  });

  it("shows the generic failure toast and the server's 409 message", async () => {
    mockFetch({
      'GET /api/admin/student': STUDENTS,
      [`POST /api/admin/orders/enroll/${ADA.student_id}`]: errorBody(
        409,
        SCHEDULING_MESSAGES.alreadyEnrolled,
      ),
    });
    const close = jest.fn();
    renderWithProviders(<AddStudentDialog data={{ event_id: EVENT_ID }} close={close} />);
    await pickAda();
    fireEvent.click(screen.getByRole('button', { name: 'Enroll directly' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.addFailed)).toBeInTheDocument();
    expect(screen.getByText(SCHEDULING_MESSAGES.alreadyEnrolled)).toBeInTheDocument();
    expect(close).not.toHaveBeenCalled();
  });

  describe('on a membership or pack (issue 24)', () => {
    const COURSE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
    const PACK = '99999999-9999-4999-8999-999999999999';
    const COVERING = okBody<'/api/admin/student/{student_id}/wallet/covering', 'get'>({
      holdings: [
        { holding_id: '88888888-8888-4888-8888-888888888888', kind: 'membership', label: 'Gold', unit: 'bookings', balance: 1_000_000, unlimited: true, expires_at: null },
        { holding_id: PACK, kind: 'pack', label: '10-class pack', unit: 'credits', balance: 3, unlimited: false, expires_at: null },
      ],
    });
    const ENROLLED = okBody<'/api/admin/orders/enroll/{student_id}', 'post'>({
      enrollment_id: 'x',
      order_id: 'o',
      order_number: 7,
      total: 0,
      source: 'workbench',
    });

    it("offers 'Book on …' for the picked student's holdings that cover the course and books on the one chosen", async () => {
      const close = jest.fn();
      const calls = mockFetch({
        'GET /api/admin/student': STUDENTS,
        [`GET /api/admin/student/${ADA.student_id}/wallet/covering`]: COVERING,
        [`POST /api/admin/orders/enroll/${ADA.student_id}`]: ENROLLED,
      });
      renderWithProviders(<AddStudentDialog data={{ event_id: EVENT_ID, activity_id: COURSE }} close={close} />);
      expect(screen.queryByRole('button', { name: /^Book on/ })).toBeNull();
      await pickAda();
      expect(await screen.findByRole('button', { name: 'Book on Gold (Unlimited)' })).toBeInTheDocument();
      expect(calls.find((c) => c.url.includes('/wallet/covering'))?.url).toContain(`activity_id=${COURSE}`);
      fireEvent.click(screen.getByRole('button', { name: 'Book on 10-class pack (3 credits left)' }));
      expect(await screen.findByText(SCHEDULING_MESSAGES.studentAdded)).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ event_id: EVENT_ID, holding_id: PACK });
      expect(close).toHaveBeenCalled();
    });

    it("shows the wallet's refusal and stays open", async () => {
      const close = jest.fn();
      mockFetch({
        'GET /api/admin/student': STUDENTS,
        [`GET /api/admin/student/${ADA.student_id}/wallet/covering`]: COVERING,
        [`POST /api/admin/orders/enroll/${ADA.student_id}`]: errorBody(409, WALLET_MESSAGES.expired),
      });
      renderWithProviders(<AddStudentDialog data={{ event_id: EVENT_ID, activity_id: COURSE }} close={close} />);
      await pickAda();
      fireEvent.click(await screen.findByRole('button', { name: 'Book on 10-class pack (3 credits left)' }));
      expect(await screen.findByText(WALLET_MESSAGES.expired)).toBeInTheDocument();
      expect(close).not.toHaveBeenCalled();
    });
  });
});
