import { fireEvent, screen } from '@testing-library/react';
import {
  errorBody,
  mockFetch,
  networkError,
  okBody,
  renderWithProviders,
  type OkBodyOf,
} from '@studio/ui/testing';
import { PAYMENT_LINK_MESSAGES, SCHEDULING_MESSAGES, STUDENT_SEARCH_LIMIT } from '@studio/contracts';
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
const STUDENTS = okBody<'/api/admin/student', 'get'>({
  students: [ADA],
  totalCount: 1,
  currentPage: 1,
  itemsPerPage: STUDENT_SEARCH_LIMIT,
  next_cursor: null,
});
const INVOICE = `POST /api/admin/orders/invoice/${ADA.student_id}`;
const LINK_SENT = okBody<'/api/admin/orders/invoice/{student_id}', 'post'>({
  order_id: '77777777-7777-4777-8777-777777777777',
  order_number: 1042,
  url: 'http://localhost:3000/api/pay/demo/dcs_0123456789abcdef0123456789abcdef',
  expires_at: '2026-11-23T17:00:00.000Z',
});

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

async function pickAda() {
  const picker = screen.getByRole('combobox', { name: 'Student' });
  fireEvent.mouseDown(picker);
  fireEvent.change(picker, { target: { value: 'ada' } });
  fireEvent.click(await screen.findByText('Ada Lovelace (ada@example.com)'));
}

describe('AddStudentDialog: Send payment link', () => {
  it('offers "Send payment link" beside "Enroll directly", and needs a student first', async () => {
    const calls = mockFetch({ 'GET /api/admin/student': STUDENTS });
    renderWithProviders(<AddStudentDialog data={{ event_id: EVENT_ID }} close={jest.fn()} />);
    expect(screen.getByRole('button', { name: PAYMENT_LINK_MESSAGES.enrollDirectly })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: PAYMENT_LINK_MESSAGES.sendLink }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.selectStudent)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("sends the link for the session and toasts 'Payment link sent to student.'", async () => {
    const onDone = jest.fn();
    const close = jest.fn();
    const calls = mockFetch({ 'GET /api/admin/student': STUDENTS, [INVOICE]: LINK_SENT });
    renderWithProviders(<AddStudentDialog data={{ event_id: EVENT_ID, onDone }} close={close} />);
    await pickAda();
    fireEvent.click(screen.getByRole('button', { name: PAYMENT_LINK_MESSAGES.sendLink }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.paymentLinkSent)).toBeInTheDocument();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0].url).toContain(`/api/admin/orders/invoice/${ADA.student_id}`);
    expect(posts[0].body).toEqual({ event_id: EVENT_ID });
    // The held seat changes the session's seat count: the drawer reloads.
    expect(onDone).toHaveBeenCalled();
    expect(close).toHaveBeenCalled();
  });

  it('toasts the failure and says why when the server refuses (a free session), keeping the dialog open', async () => {
    const close = jest.fn();
    mockFetch({
      'GET /api/admin/student': STUDENTS,
      [INVOICE]: errorBody(409, PAYMENT_LINK_MESSAGES.freeSession),
    });
    renderWithProviders(<AddStudentDialog data={{ event_id: EVENT_ID }} close={close} />);
    await pickAda();
    fireEvent.click(screen.getByRole('button', { name: PAYMENT_LINK_MESSAGES.sendLink }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.addFailed)).toBeInTheDocument();
    expect(screen.getByText(PAYMENT_LINK_MESSAGES.freeSession)).toBeInTheDocument();
    expect(screen.queryByText(SCHEDULING_MESSAGES.paymentLinkSent)).not.toBeInTheDocument();
    expect(close).not.toHaveBeenCalled();
  });

  it('toasts the failure when the network fails', async () => {
    const onDone = jest.fn();
    mockFetch({ 'GET /api/admin/student': STUDENTS, [INVOICE]: networkError() });
    renderWithProviders(<AddStudentDialog data={{ event_id: EVENT_ID, onDone }} close={jest.fn()} />);
    await pickAda();
    fireEvent.click(screen.getByRole('button', { name: PAYMENT_LINK_MESSAGES.sendLink }));
    expect((await screen.findAllByText(SCHEDULING_MESSAGES.addFailed)).length).toBeGreaterThan(0);
    expect(onDone).not.toHaveBeenCalled();
  });
});
