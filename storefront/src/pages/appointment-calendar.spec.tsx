import { fireEvent, screen, waitFor, within } from '@testing-library/dom';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { course } from '../testing/fixtures';
import { AppointmentCalendar, monthRange, monthWeeks } from './appointment-calendar';
import { CoursePage } from './course';
import { mockStore } from '../testing/store-fetch';

const base = '/s/demo-studio';
const NEW_YORK = 'America/New_York';
const TOKYO = 'Asia/Tokyo';
/** Friday, Nov 27, 2026, 10:00 AM in New York. */
const NOW = new Date('2026-11-27T15:00:00.000Z');

const appointmentCourse = (window = 60) =>
  course({
    activity_type: 'appointment',
    duration_mins: 60,
    booking_window_days: window,
    max_party_size: 3,
    sessions: [],
  });

/** The slots call answering days (in the zone asked) with their starts. */
function answerSlots(days: Record<string, string[]>) {
  const calls: URL[] = [];
  mockStore((call) => {
    calls.push(new URL(call.url, 'http://store.test'));
    return {
      status: 200,
      body: {
        zone: NEW_YORK,
        display_zone: TOKYO,
        slots: [],
        days: Object.entries(days).map(([date, slots]) => ({ date, slots })),
      },
    };
  });
  return calls;
}

async function show(visitorZone: string, window = 60) {
  document.body.innerHTML = '<div id="app"></div>';
  await act(async () => {
    render(
      <AppointmentCalendar
        course={appointmentCourse(window)}
        base={base}
        now={NOW}
        visitorZone={visitorZone}
      />,
      document.getElementById('app')!,
    );
  });
  await waitFor(() => expect(screen.queryByText('Loading times…')).toBeNull());
}

describe('the booking calendar of an appointment course', () => {
  it('asks the slots of the month in the visitor’s zone, and names both zones when they differ', async () => {
    const calls = answerSlots({});
    await show(TOKYO);
    expect(screen.getByRole('heading', { name: 'November 2026' })).toBeInTheDocument();
    expect(
      screen.getByText('Times are in Asia/Tokyo. The studio is in America/New York.'),
    ).toBeInTheDocument();
    const asked = calls[calls.length - 1];
    expect(asked.pathname).toBe(
      `/api/public/demo-studio/activities/${appointmentCourse().activity_id}/slots`,
    );
    expect(asked.searchParams.get('tz')).toBe(TOKYO);
    expect(new Date(asked.searchParams.get('from')!).getTime()).toBeLessThanOrEqual(Date.UTC(2026, 10, 1));
    expect(new Date(asked.searchParams.get('to')!).getTime()).toBeGreaterThanOrEqual(Date.UTC(2026, 11, 1));
    expect(screen.getByText('No free times in November 2026.')).toBeInTheDocument();
  });

  it('says nothing of zones when the visitor is in the studio’s', async () => {
    answerSlots({});
    await show(NEW_YORK);
    expect(screen.queryByText(/Times are in/)).toBeNull();
  });

  it('makes the days with free times buttons and the others disabled, in a labelled grid', async () => {
    answerSlots({
      '2026-11-28': ['2026-11-28T14:00:00.000Z', '2026-11-28T15:00:00.000Z'],
      '2026-11-30': ['2026-11-30T14:00:00.000Z'],
      // Outside the month shown: ignored.
      '2026-12-01': ['2026-12-01T14:00:00.000Z'],
    });
    await show(NEW_YORK);
    const grid = screen.getByRole('grid', { name: 'November 2026' });
    const open = within(grid).getByRole('button', { name: 'Saturday, November 28, 2026, 2 times free' });
    expect(open).toBeEnabled();
    expect(
      within(grid).getByRole('button', { name: 'Monday, November 30, 2026, 1 time free' }),
    ).toBeEnabled();
    expect(
      within(grid).getByRole('button', { name: 'Sunday, November 29, 2026, no free times' }),
    ).toBeDisabled();
    expect(
      within(grid)
        .getAllByRole('button')
        .filter((b) => !(b as HTMLButtonElement).disabled),
    ).toHaveLength(2);
    // Seven named columns, Sunday first.
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.getAttribute('abbr')),
    ).toEqual(['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']);
    // The arrow keys move between the days that can be chosen.
    open.focus();
    fireEvent.keyDown(open, { key: 'ArrowRight' });
    expect(document.activeElement).toHaveAccessibleName('Monday, November 30, 2026, 1 time free');
  });

  it('shows the chosen day’s times in the visitor’s zone, and Book goes to the checkout with the start', async () => {
    // 9:00 AM and 10:00 AM in New York are 11:00 PM and midnight in Tokyo, on two Tokyo dates.
    answerSlots({ '2026-11-30': ['2026-11-30T14:00:00.000Z'], '2026-12-01': ['2026-11-30T15:00:00.000Z'] });
    await show(TOKYO);
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: /^Monday, November 30, 2026/ }));
    });
    const times = screen.getByRole('region', { name: 'Times on Monday, November 30, 2026' });
    const time = within(times).getByRole('button', { name: '11:00 PM GMT+9' });
    expect(within(times).getAllByRole('button')).toHaveLength(1);
    expect(screen.queryByRole('link', { name: /^Book/ })).toBeNull();
    act(() => {
      fireEvent.click(time);
    });
    expect(time).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('link', { name: /^Book 11:00 PM/ })).toHaveAttribute(
      'href',
      `${base}/checkout?activity_id=${appointmentCourse().activity_id}&starts_at=${encodeURIComponent('2026-11-30T14:00:00.000Z')}`,
    );
  });

  it('browses from this month to the booking window’s last, no further either way', async () => {
    answerSlots({});
    await show(NEW_YORK, 40); // Nov 27 + 40 days: Jan 6, 2027
    const previous = screen.getByRole('button', { name: 'Previous month' });
    const next = screen.getByRole('button', { name: 'Next month' });
    expect(previous).toBeDisabled();
    await act(async () => {
      fireEvent.click(next);
    });
    expect(screen.getByRole('heading', { name: 'December 2026' })).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(next);
    });
    expect(screen.getByRole('heading', { name: 'January 2027' })).toBeInTheDocument();
    expect(next).toBeDisabled();
    expect(previous).toBeEnabled();
  });
});

describe('month arithmetic', () => {
  it('lays a month out in weeks from Sunday', () => {
    const weeks = monthWeeks('2026-11');
    expect(weeks[0][0]).toBe('2026-11-01'); // Nov 1, 2026 is a Sunday
    expect(weeks.flat().filter(Boolean)).toHaveLength(30);
    expect(weeks.every((w) => w.length === 7)).toBe(true);
    expect(monthWeeks('2027-02')[0].slice(0, 1)).toEqual([null]);
  });

  it('counts this month in the visitor’s zone', () => {
    // 11:30 PM on Nov 30 in New York is already December in Tokyo.
    const late = new Date('2026-12-01T04:30:00.000Z');
    expect(monthRange(late, 10, NEW_YORK).first).toBe('2026-11');
    expect(monthRange(late, 10, TOKYO).first).toBe('2026-12');
  });
});

describe('the course page of an appointment course', () => {
  it('shows the booking calendar in place of sessions', async () => {
    answerSlots({});
    document.body.innerHTML = '<div id="app"></div>';
    await act(async () => {
      render(<CoursePage data={appointmentCourse()} base={base} />, document.getElementById('app')!);
    });
    const section = screen.getByRole('region', { name: 'Book a time' });
    await waitFor(() => expect(within(section).getByRole('grid')).toBeInTheDocument());
  });
});
