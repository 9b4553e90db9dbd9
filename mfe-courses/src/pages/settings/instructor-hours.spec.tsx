import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AVAILABILITY_MESSAGES as M } from '@studio/contracts';
import {
  errorBody,
  mockFetch,
  okBody,
  renderWithProviders,
  type MockAnswer,
  type OkBodyOf,
  type RecordedCall,
} from '@studio/ui/testing';

/** Picks a time of one range's select by typing it (the list is virtual: only a screenful is drawn). */
async function pickTime(label: string, time: string) {
  const combobox = screen.getByRole('combobox', { name: label });
  fireEvent.mouseDown(combobox);
  fireEvent.change(combobox, { target: { value: time } });
  // The newest popup's option (the ids of jsdom's selects are all alike; closed popups stay in the page).
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].filter(
      (el) => el.getAttribute('title') === time,
    );
    if (found.length === 0) throw new Error(`no option ${time} in ${label}`);
    return found[found.length - 1];
  });
  fireEvent.click(option);
}
import { InstructorsPage } from './instructors.page';

// The week grid is a few dozen antd selects in jsdom on two busy cores.
jest.setTimeout(120000);

const ADA = {
  instructor_id: '44444444-4444-4444-8444-444444444444',
  first_name: 'Ada',
  last_name: 'Potter',
  photo_url: null,
};
const HOURS_PATH = `/api/admin/instructor/${ADA.instructor_id}/availability`;
type Hours = OkBodyOf<'/api/admin/instructor/{instructor_id}/availability', 'get'>;

const week = (days: Partial<Hours['weekly']> = {}): Hours['weekly'] => ({
  sun: [],
  mon: [],
  tue: [],
  wed: [],
  thu: [],
  fri: [],
  sat: [],
  ...days,
});
const MONDAY_ONLY: Hours = { weekly: week({ mon: [{ start: '09:00', end: '17:00' }] }), overrides: [] };

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

/** The instructors page with Ada's hours open; PUT answers what it was sent (or `put`). */
async function openHours(hours: Hours = MONDAY_ONLY, put?: (call: RecordedCall) => MockAnswer) {
  const calls = mockFetch({
    'GET /api/admin/instructor': okBody<'/api/admin/instructor', 'get'>({ instructors: [ADA] }),
    [`GET ${HOURS_PATH}`]: okBody<'/api/admin/instructor/{instructor_id}/availability', 'get'>(hours),
    [`PUT ${HOURS_PATH}`]:
      put ??
      ((call) => okBody<'/api/admin/instructor/{instructor_id}/availability', 'put'>(call.body as Hours)),
  });
  renderWithProviders(<InstructorsPage />);
  fireEvent.click(await screen.findByRole('button', { name: 'Hours of Ada' }));
  await screen.findByRole('form', { name: 'Hours' });
  return calls;
}

const day = (name: string) => screen.getByRole('group', { name: `Hours of ${name}` });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save hours' }));
const putBodies = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'PUT').map((c) => c.body as Hours);
/** The shown label of a time: what the select displays. */
const shownTime = (label: string) =>
  screen.getByRole('combobox', { name: label }).closest('.ant-select')!.textContent;

describe('Settings → Instructors → Hours', () => {
  it('reads the hours into a week grid, Monday first, with the time zone note', async () => {
    await openHours();
    expect(screen.getByRole('region', { name: 'Hours of Ada Potter' })).toBeInTheDocument();
    const days = screen.getAllByRole('group', {
      name: /^Hours of (Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day$/,
    });
    expect(days.map((d) => d.getAttribute('aria-label'))).toEqual([
      'Hours of Monday',
      'Hours of Tuesday',
      'Hours of Wednesday',
      'Hours of Thursday',
      'Hours of Friday',
      'Hours of Saturday',
      'Hours of Sunday',
    ]);
    expect(within(day('Monday')).getByRole('checkbox', { name: 'Monday' })).toBeChecked();
    expect(shownTime('Monday start 1')).toBe('9:00 AM');
    expect(shownTime('Monday end 1')).toBe('5:00 PM');
    expect(within(day('Tuesday')).getByRole('checkbox', { name: 'Tuesday' })).not.toBeChecked();
    expect(within(day('Tuesday')).getByText('Closed')).toBeInTheDocument();
    expect(screen.getByText(/time zone of the location/)).toBeInTheDocument();
  });

  it('opens a day, adds a second range after the first, copies Monday to the weekdays, and saves that body', async () => {
    const calls = await openHours();
    fireEvent.click(screen.getByRole('button', { name: 'Add hours on Monday' }));
    expect(shownTime('Monday start 2')).toBe('5:00 PM');
    expect(shownTime('Monday end 2')).toBe('6:00 PM');
    fireEvent.click(screen.getByRole('button', { name: 'Copy Monday to weekdays' }));
    expect(shownTime('Friday end 2')).toBe('6:00 PM');
    fireEvent.click(within(day('Saturday')).getByRole('checkbox', { name: 'Saturday' }));
    await pickTime('Saturday start 1', '10:00 AM');
    await pickTime('Saturday end 1', '2:00 PM');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Thursday hours 2' }));
    save();
    expect(await screen.findByText(M.saved)).toBeInTheDocument();
    const two = [
      { start: '09:00', end: '17:00' },
      { start: '17:00', end: '18:00' },
    ];
    expect(putBodies(calls)).toEqual([
      {
        weekly: week({
          mon: two,
          tue: two,
          wed: two,
          thu: [two[0]],
          fri: two,
          sat: [{ start: '10:00', end: '14:00' }],
        }),
        overrides: [],
      },
    ]);
  });

  it('adds a closed date and a date with its own hours, and removes one', async () => {
    const calls = await openHours();
    fireEvent.click(screen.getByRole('button', { name: /Add a date/ }));
    fireEvent.click(screen.getByRole('button', { name: /Add a date/ }));
    fireEvent.click(screen.getByRole('button', { name: /Add a date/ }));
    setDate('Date 1', '2026-12-24');
    setDate('Date 2', '2026-12-31');
    setDate('Date 3', '2027-01-02');
    fireEvent.click(within(screen.getByTestId('override-2')).getByRole('radio', { name: 'Hours' }));
    await pickTime('Date 2 end 1', '1:00 PM');
    fireEvent.click(screen.getByRole('button', { name: 'Remove date 3' }));
    save();
    expect(await screen.findByText(M.saved)).toBeInTheDocument();
    expect(putBodies(calls)[0].overrides).toEqual([
      { date: '2026-12-24', ranges: [] },
      { date: '2026-12-31', ranges: [{ start: '09:00', end: '13:00' }] },
    ]);
  });

  it("shows the contract's messages under the range in error and sends nothing", async () => {
    const calls = await openHours();
    await pickTime('Monday end 1', '8:00 AM');
    fireEvent.click(screen.getByRole('button', { name: 'Add hours on Monday' }));
    await pickTime('Monday start 2', '12:00 PM');
    await pickTime('Monday end 2', '1:00 PM');
    fireEvent.click(screen.getByRole('button', { name: /Add a date/ }));
    save();
    expect(await within(day('Monday')).findByText(M.endAfterStart)).toBeInTheDocument();
    expect(screen.getByText(M.date)).toBeInTheDocument();
    expect(putBodies(calls)).toEqual([]);

    // Fixed end, now the second range overlaps the first.
    await pickTime('Monday end 1', '5:00 PM');
    save();
    expect(await within(day('Monday')).findByText(M.overlap)).toBeInTheDocument();
    expect(within(day('Monday')).queryByText(M.endAfterStart)).toBeNull();
    expect(putBodies(calls)).toEqual([]);
  });

  it("puts the API's field message under the field it names", async () => {
    await openHours(MONDAY_ONLY, () =>
      errorBody(400, 'Validation failed', { 'weekly.mon.0.end': 'Refused by the server.' }),
    );
    save();
    expect(await screen.findByText('Could not save. Please try again.')).toBeInTheDocument();
    expect(within(day('Monday')).getByText('Refused by the server.')).toBeInTheDocument();
  });

  it('reads the saved hours back when opened again', async () => {
    const calls = await openHours({
      weekly: week({ wed: [{ start: '10:00', end: '12:00' }] }),
      overrides: [{ date: '2026-12-24', ranges: [] }],
    });
    expect(shownTime('Wednesday start 1')).toBe('10:00 AM');
    expect(within(screen.getByTestId('override-1')).getByRole('radio', { name: 'Closed' })).toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Hours' })).toBeNull());
    expect(calls.filter((c) => c.method === 'GET' && c.url === HOURS_PATH)).toHaveLength(1);
  });
});

/** Types a date into an antd DatePicker and confirms it with Enter. */
function setDate(label: string, date: string) {
  const input = screen.getByLabelText(label);
  fireEvent.mouseDown(input);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: date } });
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.blur(input);
}
