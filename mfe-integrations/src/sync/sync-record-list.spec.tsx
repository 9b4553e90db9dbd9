import { fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders } from '@studio/ui/testing';
import { SyncRecordList, type SyncRecordAction } from './sync-record-list';

interface Item {
  id: string;
  name: string;
}

const ITEMS: Item[] = [
  { id: 'a', name: 'Alpha' },
  { id: 'b', name: 'Beta' },
];

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

const render = (records: Item[], total: number, run: SyncRecordAction<Item>['run']) =>
  renderWithProviders(
    <SyncRecordList<Item>
      label="Things"
      empty="No things"
      records={records}
      total={total}
      countText={(n) => (n === 1 ? '1 thing' : `${n} things`)}
      describe={(item) => ({ what: `Thing ${item.name}`, problem: 'Broke', when: 'Today' })}
      action={{
        label: 'Fix',
        name: (item) => `Fix ${item.name}`,
        run,
        done: 'Fixed',
        failed: 'Could not fix',
        logMessage: 'Fixing failed',
      }}
    />,
  );

describe('SyncRecordList', () => {
  it('says when there is nothing', () => {
    render([], 0, jest.fn());
    expect(screen.getByText('No things')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('counts them, says how many of the most recent are shown, and lists each with its lines', () => {
    render(ITEMS, 5, jest.fn());
    expect(screen.getByText('5 things (the 2 most recent shown)')).toBeInTheDocument();
    const rows = within(screen.getByRole('list', { name: 'Things' })).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Thing AlphaBrokeToday');
  });

  it('runs the action on its record and toasts; a failure toasts and is logged', async () => {
    const run = jest.fn().mockResolvedValueOnce({}).mockRejectedValueOnce(new Error('409'));
    render(ITEMS.slice(0, 1), 1, run);
    expect(screen.getByText('1 thing')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Fix Alpha' }));
    expect(await screen.findByText('Fixed')).toBeInTheDocument();
    expect(run).toHaveBeenCalledWith(ITEMS[0]);
    fireEvent.click(screen.getByRole('button', { name: 'Fix Alpha' }));
    expect(await screen.findByText('Could not fix')).toBeInTheDocument();
    expect(console.error).toHaveBeenCalledWith('Fixing failed', expect.any(Error));
  });
});
