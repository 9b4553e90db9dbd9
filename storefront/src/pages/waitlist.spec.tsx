import { fireEvent, screen, waitFor, within } from '@testing-library/dom';
import { WAITLIST_MESSAGES } from '@studio/contracts/src/scheduling/waitlist-rules';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { course, session } from '../testing/fixtures';
import { WaitlistPage, type WaitlistData } from './waitlist';
import { mockStore } from '../testing/store-fetch';

const base = '/s/demo-studio';
const EVENT = session().event_id;
const JOIN = `POST /api/public/demo-studio/sessions/${EVENT}/waitlist`;

function show(data: Partial<WaitlistData> = {}) {
  document.body.innerHTML = '<div id="app"></div>';
  const value: WaitlistData = {
    store_name: 'Demo Studio',
    course: course(),
    session: session({ seats_left: 0, sold_out: true }),
    ...data,
  };
  act(() => render(<WaitlistPage data={value} base={base} />, document.getElementById('app')!));
}

/** fetch answering by "METHOD path"; every call's body is kept. */
function answer(routes: Record<string, { status: number; body: unknown }>) {
  return mockStore((call) => routes[`${call.method} ${call.url}`]);
}

const type = (name: string, value: string) =>
  act(() => {
    fireEvent.input(screen.getByRole('textbox', { name }), { target: { value } });
  });

describe('the waitlist page', () => {
  it('joins a sold-out session with name, email and party size, and says so', async () => {
    show();
    expect(
      screen.getByRole('heading', { level: 1, name: 'Waitlist: Intro to Wheel Throwing' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'The session' })).toHaveTextContent('Sold out');
    const calls = answer({
      [JOIN]: { status: 200, body: { status: 'joined', message: WAITLIST_MESSAGES.joined, party_size: 2 } },
    });
    type('Name', 'Wanda Wait');
    type('Email', 'wanda@example.test');
    act(() => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Seats' }), { target: { value: '2' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    });
    expect(await screen.findByRole('status')).toHaveTextContent(WAITLIST_MESSAGES.joined);
    expect(calls[0].body).toEqual({ name: 'Wanda Wait', email: 'wanda@example.test', party_size: 2 });
    expect(screen.queryByRole('form', { name: 'Join the waitlist' })).toBeNull();
  });

  it('puts the store’s refusals under their fields', async () => {
    show();
    answer({
      [JOIN]: {
        status: 400,
        body: {
          statusCode: 400,
          message: WAITLIST_MESSAGES.email,
          errors: { email: WAITLIST_MESSAGES.email, party_size: WAITLIST_MESSAGES.partySize(3) },
        },
      },
    });
    type('Email', 'nope');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    });
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Email' })).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(screen.getByText(WAITLIST_MESSAGES.email)).toBeInTheDocument();
    expect(screen.getByText(WAITLIST_MESSAGES.partySize(3))).toBeInTheDocument();
  });

  it('sends a session with seats left to its checkout', async () => {
    show({ session: session({ seats_left: 2, sold_out: false }) });
    expect(screen.queryByRole('button', { name: 'Join the waitlist' })).toBeNull();
    const status = screen.getByRole('status');
    expect(within(status).getByRole('link', { name: 'Book it' })).toHaveAttribute(
      'href',
      `${base}/checkout?event_id=${EVENT}`,
    );
  });

  it('a seat freed since the page loaded: the refusal links to the checkout', async () => {
    show();
    answer({ [JOIN]: { status: 409, body: { statusCode: 409, message: WAITLIST_MESSAGES.hasSeats } } });
    type('Name', 'Wanda');
    type('Email', 'wanda@example.test');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(WAITLIST_MESSAGES.hasSeats);
    expect(within(alert).getByRole('link', { name: 'Book it' })).toHaveAttribute(
      'href',
      `${base}/checkout?event_id=${EVENT}`,
    );
  });
});
