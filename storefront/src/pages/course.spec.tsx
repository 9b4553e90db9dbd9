import { fireEvent, screen, within } from '@testing-library/dom';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { course, session } from '../testing/fixtures';
import { CoursePage } from './course';

const base = '/s/demo-studio';

function show(data = course()) {
  document.body.innerHTML = '<div id="app"></div>';
  act(() => render(<CoursePage data={data} base={base} />, document.getElementById('app')!));
}

describe('the course page', () => {
  it('shows the course: name, price, level, category, instructor, location, tools and policies in words', () => {
    show();
    expect(screen.getByRole('heading', { level: 1, name: 'Intro to Wheel Throwing' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Intro to Wheel Throwing, picture 1 of 2' })).toHaveAttribute(
      'src',
      '/api/media/wheel-1.png',
    );
    const facts = screen.getAllByRole('definition').map((dd) => dd.textContent);
    expect(facts).toEqual(['$65.00', 'Beginner', 'Ceramics', 'Main studio']);
    expect(screen.getByText('Clay and one firing included.')).toBeInTheDocument();
    expect(screen.getByText('Apron, towel')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Mira Clay' })).toHaveAttribute('src', '/api/media/mira.png');
    expect(screen.getByText(/12 Kiln Street, Brooklyn, NY/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Cancellation: Flexible' })).toBeInTheDocument();
    expect(screen.getByText('Full refund up to 24 hours before the session.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Rescheduling: Anytime' })).toBeInTheDocument();
    // Headings in order: one h1, then h2 sections, h3 only inside them.
    const levels = screen.getAllByRole('heading').map((h) => Number(h.tagName.slice(1)));
    expect(levels[0]).toBe(1);
    levels.slice(1).forEach((level, i) => expect(level - levels[i]).toBeLessThanOrEqual(1));
  });

  it('lists the sessions with time in their zone, seats left, and a Book link unless sold out', () => {
    show(
      course({
        sessions: [
          session({ seats_left: 2 }),
          session({
            event_id: 'b1b2c3d4-0000-4000-8000-000000000002',
            seats_left: 0,
            sold_out: true,
            starts_at: '2026-12-08T23:00:00.000Z',
            ends_at: '2026-12-09T01:00:00.000Z',
          }),
        ],
      }),
    );
    const sessions = screen.getByRole('region', { name: 'Upcoming sessions' });
    const [open, full] = within(sessions).getAllByRole('listitem');
    expect(open).toHaveTextContent('6:00 PM – 8:00 PM EST');
    expect(open).toHaveTextContent('Only 2 seats left');
    const book = within(open).getByRole('link', { name: /^Book / });
    expect(book).toHaveAttribute('href', `${base}/checkout?event_id=9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d`);
    expect(full).toHaveTextContent('Sold out');
    expect(within(full).queryByRole('link', { name: /^Book/ })).toBeNull();
    // A sold-out session offers its waitlist instead (issue 23).
    expect(within(full).getByRole('link', { name: /^Join the waitlist/ })).toHaveAttribute(
      'href',
      `${base}/waitlist?event_id=b1b2c3d4-0000-4000-8000-000000000002`,
    );
  });

  it('changes the picture shown when another is chosen', () => {
    show();
    const second = screen.getByRole('button', { name: 'Show picture 2 of 2' });
    expect(second).toHaveAttribute('aria-pressed', 'false');
    act(() => {
      fireEvent.click(second);
    });
    expect(screen.getByRole('img', { name: 'Intro to Wheel Throwing, picture 2 of 2' })).toHaveAttribute(
      'src',
      '/api/media/wheel-2.png',
    );
    expect(second).toHaveAttribute('aria-pressed', 'true');
  });

  it('gives an appointment course its duration and a calendar to book a time, no sessions', () => {
    global.fetch = jest.fn(() => new Promise<Response>(() => undefined)) as unknown as typeof fetch;
    show(course({ activity_type: 'appointment', duration_mins: 90, booking_window_days: 60, max_party_size: 2, sessions: [] }));
    expect(screen.getByText('1 h 30 min')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Book a time' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Book/ })).toBeNull();
  });

  it('says Online for an online course and Free for a free one', () => {
    show(
      course({
        free: true,
        price_cents: 0,
        location: { name: 'Zoom', address: '', timezone: 'America/New_York', online: true },
        sessions: [session({ price_cents: 0, online: true, location_name: 'Zoom' })],
      }),
    );
    expect(screen.getAllByText('Free').length).toBeGreaterThanOrEqual(2);
    expect(screen.getByText(/^Online\. The link to join/)).toBeInTheDocument();
  });
});
