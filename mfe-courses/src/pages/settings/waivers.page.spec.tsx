import { fireEvent, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { errorBody, mockFetch, okBody, renderWithProviders } from '@studio/ui/testing';
import { WaiversPage } from './waivers.page';

const SUMMARY = 'GET /api/admin/submission/summary';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

const render = () =>
  renderWithProviders(
    <MemoryRouter initialEntries={['/admin/settings/waivers']}>
      <Routes>
        <Route path="/admin/settings/waivers" element={<WaiversPage />} />
        <Route path="/admin/waivers/new" element={<p>New waiver form</p>} />
      </Routes>
    </MemoryRouter>,
  );

describe('Waivers settings page', () => {
  it('lists the templates with their pending and completed submissions, and links to a new waiver', async () => {
    mockFetch({
      [SUMMARY]: okBody<'/api/admin/submission/summary', 'get'>({
        templates: [
          {
            template_id: 't1',
            name: 'Kiln safety',
            created_at: '2026-03-01T00:00:00Z',
            document_url: null,
            pending: 2,
            completed: 5,
            expired: 0,
          },
          {
            template_id: 't2',
            name: 'Minor consent',
            created_at: '2026-03-02T00:00:00Z',
            document_url: '/api/media/x/y.pdf',
            pending: 0,
            completed: 1,
            expired: 3,
          },
        ],
      }),
    });
    render();
    expect(await screen.findByText('Kiln safety')).toBeInTheDocument();
    expect(screen.getByLabelText('Kiln safety pending')).toHaveTextContent('2');
    expect(screen.getByLabelText('Kiln safety completed')).toHaveTextContent('5');
    expect(screen.getByLabelText('Minor consent completed')).toHaveTextContent('1');
    expect(screen.getByText('3 expired')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Document' })).toHaveAttribute('href', '/api/media/x/y.pdf');
    fireEvent.click(screen.getByRole('button', { name: 'New waiver' }));
    expect(await screen.findByText('New waiver form')).toBeInTheDocument();
  });

  it("says 'No waivers yet' when there are none", async () => {
    mockFetch({ [SUMMARY]: okBody<'/api/admin/submission/summary', 'get'>({ templates: [] }) });
    render();
    expect(await screen.findByText('No waivers yet')).toBeInTheDocument();
  });

  it('a failed load is an error state with Retry, not an empty list', async () => {
    mockFetch({ [SUMMARY]: errorBody(500, 'Something went wrong on our side') });
    render();
    expect(await screen.findByText('Could not load the waivers')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Retry/ })).toBeInTheDocument();
    expect(screen.queryByText('No waivers yet')).not.toBeInTheDocument();
  });
});
