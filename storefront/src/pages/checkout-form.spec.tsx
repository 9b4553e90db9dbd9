import type { PublicCheckoutForm } from '@studio/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/dom';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { course, session } from '../testing/fixtures';
import { browser, CheckoutPage } from './checkout';
import { mockStore } from '../testing/store-fetch';

const base = '/s/demo-studio';

const FORM: PublicCheckoutForm = {
  collection_type: 'ticket',
  fields: [
    {
      id: 'who',
      type: 'name',
      label: 'Full name',
      placeholder: '',
      description: '',
      required: true,
      options: [],
    },
    {
      id: 'exp',
      type: 'radio',
      label: 'Used a wheel before?',
      placeholder: '',
      description: 'See [our levels](https://studio.example/levels) or [this](javascript:alert(1)).',
      required: true,
      options: [
        { id: 'y', value: 'Yes' },
        { id: 'n', value: 'No' },
      ],
    },
    {
      id: 'tel',
      type: 'phone',
      label: 'Mobile',
      placeholder: '+1 555 0100',
      description: '',
      required: false,
      options: [],
    },
    {
      id: 'mail',
      type: 'email',
      label: 'Work email',
      placeholder: '',
      description: '',
      required: false,
      options: [],
    },
    {
      id: 'note',
      type: 'textarea',
      label: 'Anything else?',
      placeholder: '',
      description: '',
      required: false,
      options: [],
    },
    {
      id: 'nick',
      type: 'text',
      label: 'Nickname',
      placeholder: '',
      description: '',
      required: false,
      options: [],
    },
    {
      id: 'size',
      type: 'select',
      label: 'Apron size',
      placeholder: '',
      description: '',
      required: false,
      options: [
        { id: 's', value: 'Small' },
        { id: 'l', value: 'Large' },
      ],
    },
    {
      id: 'ok',
      type: 'checkbox',
      label: 'I accept the studio rules',
      placeholder: '',
      description: '',
      required: true,
      options: [],
    },
  ],
};

function show(form: PublicCheckoutForm | null = FORM) {
  document.body.innerHTML = '<div id="app"></div>';
  act(() =>
    render(
      <CheckoutPage
        data={{
          store_name: 'Demo Studio',
          course: course({ checkout_form: form }),
          session: session({ seats_left: 3 }),
        }}
        base={base}
      />,
      document.getElementById('app')!,
    ),
  );
}

function answer(routes: Record<string, { status: number; body: unknown }>) {
  return mockStore<Record<string, unknown>>((call) => routes[`${call.method} ${call.url}`]);
}

const QUOTE = {
  status: 200,
  body: {
    lines: [],
    subtotal_cents: 13000,
    discount_cents: 0,
    total_cents: 13000,
    covered_by: null,
    wallet_money: [],
    due_cents: 13000,
    discount_code: null,
    seats_left: 3,
  },
};
const BOOKED = {
  status: 201,
  body: {
    payment_url: '/api/pay/demo/dcs_1',
    confirmation_url: '/s/demo-studio/checkout/complete?order=o&token=t',
  },
};

/** Events, then the renders they cause (as a browser runs them between a buyer's keystrokes). */
const typed = (events: () => void) => act(events);

function fillBuyer() {
  typed(() => {
    fireEvent.input(screen.getByRole('textbox', { name: 'First name' }), { target: { value: 'Ada' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Last name' }), { target: { value: 'Potter' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Email' }), {
      target: { value: 'ada@example.test' },
    });
  });
}

function fillTicket(ticket: HTMLElement, first: string) {
  typed(() => {
    fireEvent.input(within(ticket).getByRole('textbox', { name: 'First' }), { target: { value: first } });
    fireEvent.input(within(ticket).getByRole('textbox', { name: 'Last' }), { target: { value: 'Potter' } });
    fireEvent.click(within(ticket).getByRole('radio', { name: 'No' }));
    fireEvent.click(within(ticket).getByRole('checkbox', { name: 'I accept the studio rules' }));
  });
}

const book = () =>
  act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
  });

describe("the checkout page's form", () => {
  let go: jest.SpyInstance;
  beforeEach(() => {
    go = jest.spyOn(browser, 'go').mockImplementation(() => undefined);
  });
  afterEach(() => go.mockRestore());

  it('renders each type with an accessible label, and description links only when safe', () => {
    show();
    const ticket = screen.getByRole('group', { name: 'Ticket 1' });
    expect(within(ticket).getByRole('group', { name: 'Full name' })).toBeInTheDocument();
    const radios = within(ticket).getByRole('radiogroup', { name: 'Used a wheel before?' });
    expect(
      within(radios)
        .getAllByRole('radio')
        .map((r) => (r as HTMLInputElement).value),
    ).toEqual(['y', 'n']);
    expect(within(ticket).getByRole('textbox', { name: 'Mobile (optional)' })).toHaveAttribute('type', 'tel');
    expect(within(ticket).getByRole('textbox', { name: 'Mobile (optional)' })).toHaveAttribute(
      'placeholder',
      '+1 555 0100',
    );
    expect(within(ticket).getByRole('textbox', { name: 'Work email (optional)' })).toHaveAttribute(
      'type',
      'email',
    );
    expect(within(ticket).getByRole('textbox', { name: 'Anything else? (optional)' }).tagName).toBe(
      'TEXTAREA',
    );
    expect(within(ticket).getByRole('textbox', { name: 'Nickname (optional)' })).toHaveAttribute(
      'type',
      'text',
    );
    expect(within(ticket).getByRole('combobox', { name: 'Apron size (optional)' })).toHaveTextContent(
      'SmallLarge',
    );
    expect(within(ticket).getByRole('checkbox', { name: 'I accept the studio rules' })).toBeInTheDocument();
    // The description: the safe link is a link (new tab, no opener); the unsafe one stays text.
    const link = within(radios).getByRole('link', { name: 'our levels' });
    expect(link).toHaveAttribute('href', 'https://studio.example/levels');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(radios).queryByRole('link', { name: 'this' })).not.toBeInTheDocument();
    expect(radios).toHaveTextContent('[this](javascript:alert(1))');
    expect(radios).toHaveAccessibleDescription(/See our levels/);
  });

  it('per ticket: one set per seat chosen, labelled Ticket 1, Ticket 2…', async () => {
    show();
    answer({ 'POST /api/public/demo-studio/checkout/quote': QUOTE });
    expect(screen.queryByRole('group', { name: 'Ticket 2' })).not.toBeInTheDocument();
    await act(async () => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Seats' }), { target: { value: '3' } });
    });
    expect(
      screen
        .getAllByRole('group', { name: /^Ticket \d$/ })
        .map((g) => g.querySelector('legend')?.textContent),
    ).toEqual(['Ticket 1', 'Ticket 2', 'Ticket 3']);
  });

  it('per order: one set whatever the party', async () => {
    show({ ...FORM, collection_type: 'order' });
    answer({ 'POST /api/public/demo-studio/checkout/quote': QUOTE });
    await act(async () => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Seats' }), { target: { value: '2' } });
    });
    expect(screen.getAllByRole('group', { name: 'A few questions from the studio' })).toHaveLength(1);
    expect(screen.queryByRole('group', { name: /Ticket/ })).not.toBeInTheDocument();
  });

  it('checks the answers with the same schema before posting, each message under its field', async () => {
    show();
    const calls = answer({ 'POST /api/public/demo-studio/checkout': BOOKED });
    fillBuyer();
    const ticket = screen.getByRole('group', { name: 'Ticket 1' });
    typed(() => {
      fireEvent.input(within(ticket).getByRole('textbox', { name: 'First' }), { target: { value: 'Ada' } });
      fireEvent.input(within(ticket).getByRole('textbox', { name: 'Work email (optional)' }), {
        target: { value: 'not-an-email' },
      });
    });
    await book();
    await waitFor(() => expect(screen.getByText('Check the answers marked below.')).toBeInTheDocument());
    expect(calls).toEqual([]);
    expect(within(ticket).getByRole('group', { name: 'Full name' })).toHaveTextContent(
      'Enter both a first and a last name for Full name',
    );
    expect(
      within(ticket).getByRole('radiogroup', { name: 'Used a wheel before?' }),
    ).toHaveAccessibleDescription(/Used a wheel before\? is required/);
    const email = within(ticket).getByRole('textbox', { name: 'Work email (optional)' });
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Enter a valid email address');
    expect(
      within(ticket).getByRole('checkbox', { name: 'I accept the studio rules' }),
    ).toHaveAccessibleDescription('I accept the studio rules is required');
  });

  it('posts one set per seat, and goes on to pay', async () => {
    show();
    const calls = answer({
      'POST /api/public/demo-studio/checkout/quote': QUOTE,
      'POST /api/public/demo-studio/checkout': BOOKED,
    });
    await act(async () => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Seats' }), { target: { value: '2' } });
    });
    fillBuyer();
    fillTicket(screen.getByRole('group', { name: 'Ticket 1' }), 'Ada');
    fillTicket(screen.getByRole('group', { name: 'Ticket 2' }), 'Bo');
    typed(() => {
      fireEvent.change(
        within(screen.getByRole('group', { name: 'Ticket 2' })).getByRole('combobox', {
          name: 'Apron size (optional)',
        }),
        { target: { value: 'l' } },
      );
    });
    await book();
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/pay/demo/dcs_1'));
    const posted = calls.find((c) => c.url.endsWith('/checkout'))!;
    expect(posted.body?.answers).toEqual([
      { who: { first_name: 'Ada', last_name: 'Potter' }, exp: 'n', ok: true },
      { who: { first_name: 'Bo', last_name: 'Potter' }, exp: 'n', ok: true, size: 'l' },
    ]);
  });

  it("shows the server's field errors under their fields", async () => {
    show({ ...FORM, collection_type: 'order' });
    answer({
      'POST /api/public/demo-studio/checkout': {
        status: 400,
        body: {
          statusCode: 400,
          message: 'Enter a valid phone number',
          errors: { 'answers.0.tel': 'Enter a valid phone number' },
        },
      },
    });
    fillBuyer();
    fillTicket(screen.getByRole('group', { name: 'A few questions from the studio' }), 'Ada');
    typed(() => {
      fireEvent.input(screen.getByRole('textbox', { name: 'Mobile (optional)' }), {
        target: { value: '555 0100 1' },
      });
    });
    await book();
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Mobile (optional)' })).toHaveAccessibleDescription(
        'Enter a valid phone number',
      ),
    );
    expect(go).not.toHaveBeenCalled();
  });

  it('a course without a form shows no questions and sends no answers', async () => {
    show(null);
    const calls = answer({ 'POST /api/public/demo-studio/checkout': BOOKED });
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
    fillBuyer();
    await book();
    await waitFor(() => expect(go).toHaveBeenCalled());
    expect(calls[0].body).not.toHaveProperty('answers');
  });
});
