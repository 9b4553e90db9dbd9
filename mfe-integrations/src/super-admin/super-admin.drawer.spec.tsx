import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { errorBody, mockFetch, okBody, renderWithProviders, TEST_SESSION } from '@studio/ui/testing';
import { SuperAdminDrawer } from './super-admin.drawer';
import { page } from '../api/organizations';

const ANOTHER = '33333333-3333-4333-8333-333333333333';
/** GET /api/super-admin/organization, typed by the generated response body. */
const ORGS = okBody<'/api/super-admin/organization', 'get'>({
  organizations: [
    { organization_id: ANOTHER, name: 'Zebra Arts', timezone: 'UTC' },
    { organization_id: TEST_SESSION.user.organization_id, name: 'Demo Studio', timezone: 'America/New_York' },
    { organization_id: '44444444-4444-4444-8444-444444444444', name: 'Another Studio', timezone: 'UTC' },
  ],
});

const close = jest.fn();

beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  page.reload = jest.fn();
});
afterEach(() => jest.restoreAllMocks());

async function openSelect() {
  const select = await screen.findByRole('combobox', {}, { timeout: 3000 });
  fireEvent.mouseDown(select);
  return select;
}

describe('SuperAdminDrawer', () => {
  it('lists the organizations sorted by name', async () => {
    mockFetch({ 'GET /api/super-admin/organization': ORGS });
    renderWithProviders(<SuperAdminDrawer data={{}} close={close} />);
    await openSelect();
    await waitFor(() => expect(document.querySelectorAll('.ant-select-item-option-content')).toHaveLength(3));
    const shown = [...document.querySelectorAll('.ant-select-item-option-content')].map((o) => o.textContent);
    expect(shown).toEqual(['Another Studio', 'Demo Studio', 'Zebra Arts']);
  });

  it('saves the chosen organization with PUT {org_id}, toasts and reloads the page', async () => {
    const calls = mockFetch({
      'GET /api/super-admin/organization': ORGS,
      'PUT /api/super-admin/user': okBody<'/api/super-admin/user', 'put'>({
        ...TEST_SESSION.user,
        organization_id: ANOTHER,
      }),
    });
    renderWithProviders(<SuperAdminDrawer data={{}} close={close} />);
    await openSelect();
    await waitFor(() => expect(document.querySelector('.ant-select-dropdown')).not.toBeNull());
    const listbox = document.querySelector('.ant-select-dropdown') as HTMLElement;
    fireEvent.click(within(listbox).getByText('Zebra Arts'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Organization switched')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/super-admin/user');
    expect(put?.body).toEqual({ org_id: ANOTHER });
    await waitFor(() => expect(page.reload).toHaveBeenCalledTimes(1), { timeout: 3000 });
  });

  it("toasts 'Failed to switch organization' and stays when the switch fails", async () => {
    mockFetch({
      'GET /api/super-admin/organization': ORGS,
      'PUT /api/super-admin/user': errorBody(403, 'Forbidden'),
    });
    renderWithProviders(<SuperAdminDrawer data={{}} close={close} />);
    await screen.findByRole('combobox', {}, { timeout: 3000 });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to switch organization')).toBeInTheDocument();
    expect(page.reload).not.toHaveBeenCalled();
  });

  it('asks for an organization when none is selected', async () => {
    const calls = mockFetch({ 'GET /api/super-admin/organization': ORGS });
    renderWithProviders(<SuperAdminDrawer data={{}} close={close} />, {
      ...TEST_SESSION,
      user: { ...TEST_SESSION.user, organization_id: '' },
    });
    await screen.findByRole('combobox', {}, { timeout: 3000 });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('An organization must be selected.')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0));
  });
});
