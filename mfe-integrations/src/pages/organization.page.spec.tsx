import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { STORE_MESSAGES, WAITLIST_MESSAGES } from '@studio/contracts';
import { SessionContext, useSession } from '@studio/ui';
import {
  TEST_SESSION,
  errorBody,
  mockFetch,
  okBody,
  renderWithProviders,
  type OkBodyOf,
} from '@studio/ui/testing';
import type { ReactNode } from 'react';
import { OrganizationPage, overlaySnippet } from './organization.page';

type Org = OkBodyOf<'/api/admin/org', 'get'>;
const ORG: Org = {
  name: 'Demo Studio',
  timezone: 'America/New_York',
  listed_course: true,
  slug: 'demo-studio',
  public_url: null,
  store_url: 'http://localhost:3000/s/demo-studio',
  app_store_url: 'http://localhost:3000/s/demo-studio',
  reminder_offsets_mins: [1440],
  waitlist_claim_hours: 12,
};
const GET_ORG = 'GET /api/admin/org';
const PUT_STORE = 'PUT /api/admin/org/store';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

/** The test providers' session, with a refresh the test can observe. */
function WithRefresh({ refresh, children }: { refresh: () => Promise<void>; children: ReactNode }) {
  const state = useSession();
  return <SessionContext.Provider value={{ ...state, refresh }}>{children}</SessionContext.Provider>;
}

const slugInput = () => screen.getByLabelText('Store address');
const siteInput = () => screen.getByLabelText('Your own site (optional)');

describe('OrganizationPage', () => {
  it("shows the store's address as a link and the current values", async () => {
    mockFetch({ [GET_ORG]: okBody<'/api/admin/org', 'get'>(ORG) });
    renderWithProviders(<OrganizationPage />);
    const link = await screen.findByRole('link', { name: 'Open your store' });
    expect(link).toHaveAttribute('href', 'http://localhost:3000/s/demo-studio');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveTextContent('http://localhost:3000/s/demo-studio');
    expect(screen.getByRole('heading', { name: 'Organization' })).toBeInTheDocument();
    expect(slugInput()).toHaveValue('demo-studio');
    expect(screen.getByText('http://localhost:3000/s/')).toBeInTheDocument();
    expect(siteInput()).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it("shows the studio's own site, and the app's address before the slug", async () => {
    mockFetch({
      [GET_ORG]: okBody<'/api/admin/org', 'get'>({
        ...ORG,
        public_url: 'https://shop.demo.studio',
        store_url: 'https://shop.demo.studio',
      }),
    });
    renderWithProviders(<OrganizationPage />);
    expect(await screen.findByRole('link', { name: 'Open your store' })).toHaveAttribute(
      'href',
      'https://shop.demo.studio',
    );
    expect(siteInput()).toHaveValue('https://shop.demo.studio');
    expect(screen.getByText('http://localhost:3000/s/')).toBeInTheDocument();
  });

  it('shows an error with Retry when the organization could not be read', async () => {
    mockFetch({ [GET_ORG]: errorBody(500, 'Something went wrong on our side') });
    renderWithProviders(<OrganizationPage />);
    expect(await screen.findByText('Could not load the organization')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Retry/ })).toBeInTheDocument();
  });

  it("shows the rule's message for a malformed address before any request", async () => {
    const calls = mockFetch({ [GET_ORG]: okBody<'/api/admin/org', 'get'>(ORG) });
    renderWithProviders(<OrganizationPage />);
    await screen.findByRole('link', { name: 'Open your store' });
    fireEvent.change(slugInput(), { target: { value: 'Demo Studio!' } });
    fireEvent.change(siteInput(), { target: { value: 'shop.demo.studio' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(STORE_MESSAGES.slugInvalid)).toBeInTheDocument();
    expect(screen.getByText(STORE_MESSAGES.siteUrlInvalid)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it("puts the API's 409 message under Store address", async () => {
    const refresh = jest.fn(async () => undefined);
    mockFetch({
      [GET_ORG]: okBody<'/api/admin/org', 'get'>(ORG),
      [PUT_STORE]: errorBody(409, STORE_MESSAGES.slugTaken, { slug: STORE_MESSAGES.slugTaken }),
    });
    renderWithProviders(
      <WithRefresh refresh={refresh}>
        <OrganizationPage />
      </WithRefresh>,
    );
    await screen.findByRole('link', { name: 'Open your store' });
    fireEvent.change(slugInput(), { target: { value: 'clay-house' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(STORE_MESSAGES.slugTaken)).toBeInTheDocument();
    expect(slugInput().closest('.ant-form-item')).toHaveClass('ant-form-item-has-error');
    expect(screen.queryByText('Store address saved')).not.toBeInTheDocument();
    expect(refresh).not.toHaveBeenCalled();
  });

  it('saves the trimmed values, refreshes the session and the organization, and says so', async () => {
    const refresh = jest.fn(async () => undefined);
    const saved: Org = {
      ...ORG,
      slug: 'clay-house',
      public_url: 'https://clay.example',
      store_url: 'https://clay.example',
      app_store_url: 'http://localhost:3000/s/clay-house',
    };
    let reads = 0;
    const calls = mockFetch({
      [GET_ORG]: () => okBody<'/api/admin/org', 'get'>(reads++ === 0 ? ORG : saved),
      [PUT_STORE]: okBody<'/api/admin/org/store', 'put'>(saved),
    });
    renderWithProviders(
      <WithRefresh refresh={refresh}>
        <OrganizationPage />
      </WithRefresh>,
    );
    await screen.findByRole('link', { name: 'Open your store' });
    fireEvent.change(slugInput(), { target: { value: '  clay-house ' } });
    fireEvent.change(siteInput(), { target: { value: ' https://clay.example/ ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Store address saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      slug: 'clay-house',
      public_url: 'https://clay.example',
    });
    expect(refresh).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Open your store' })).toHaveAttribute(
        'href',
        'https://clay.example',
      ),
    );
    expect(slugInput()).toHaveValue('clay-house');
    await waitFor(() => expect(reads).toBe(2));
  });

  it('sends null for an emptied own site', async () => {
    const calls = mockFetch({
      [GET_ORG]: okBody<'/api/admin/org', 'get'>({ ...ORG, public_url: 'https://clay.example' }),
      [PUT_STORE]: okBody<'/api/admin/org/store', 'put'>(ORG),
    });
    renderWithProviders(<OrganizationPage />);
    await screen.findByRole('link', { name: 'Open your store' });
    fireEvent.change(siteInput(), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Store address saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ slug: 'demo-studio', public_url: null });
  });

  it('shows staff the values read-only with a note, and no Save', async () => {
    mockFetch({ [GET_ORG]: okBody<'/api/admin/org', 'get'>(ORG) });
    renderWithProviders(<OrganizationPage />, {
      ...TEST_SESSION,
      user: { ...TEST_SESSION.user, role: 'staff' },
    });
    await screen.findByRole('link', { name: 'Open your store' });
    expect(slugInput()).toHaveValue('demo-studio');
    expect(slugInput()).toHaveAttribute('readonly');
    expect(siteInput()).toHaveAttribute('readonly');
    expect(screen.getByText("Only the studio's owner can change the store address.")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it("shows the checkout overlay's header code with the app's address and an overlay link of the store", async () => {
    mockFetch({ [GET_ORG]: okBody<'/api/admin/org', 'get'>(ORG) });
    renderWithProviders(<OrganizationPage />);
    const section = await screen.findByRole('region', { name: 'Checkout overlay' });
    expect(within(section).getByLabelText('Header code')).toHaveTextContent(
      '<script src="http://localhost:3000/checkout-overlay.js" defer></script>',
    );
    expect(within(section).getByLabelText('Example link')).toHaveTextContent(
      '<a href="http://localhost:3000/s/demo-studio/activity/COURSE_ID?openModal=true">Book now</a>',
    );
    expect(within(section).getByText('studio:purchase-complete')).toBeInTheDocument();
  });

  it("with the studio's own site, the links use it and the script stays on the app's address", () => {
    const own = {
      ...ORG,
      public_url: 'https://shop.demo.studio',
      store_url: 'https://shop.demo.studio',
      app_store_url: 'https://app.example/s/demo-studio',
    };
    expect(overlaySnippet(own)).toEqual({
      script: '<script src="https://app.example/checkout-overlay.js" defer></script>',
      link: '<a href="https://shop.demo.studio/activity/COURSE_ID?openModal=true">Book now</a>',
    });
  });
});

describe('OrganizationPage: the waitlist claim time', () => {
  const PUT_WAITLIST = 'PUT /api/admin/org/waitlist';
  const hoursInput = () => screen.getByLabelText('Claim time (hours)');
  const saveWaitlist = () => screen.getByRole('button', { name: 'Save waitlist settings' });

  it('shows the saved claim time and saves a new one', async () => {
    const calls = mockFetch({
      [GET_ORG]: okBody<'/api/admin/org', 'get'>(ORG),
      [PUT_WAITLIST]: okBody<'/api/admin/org/waitlist', 'put'>({ ...ORG, waitlist_claim_hours: 24 }),
    });
    renderWithProviders(<OrganizationPage />);
    const section = await screen.findByRole('region', { name: 'Waitlist' });
    expect(within(section).getByLabelText('Claim time (hours)')).toHaveValue('12');
    fireEvent.change(hoursInput(), { target: { value: '24' } });
    fireEvent.click(saveWaitlist());
    expect(await screen.findByText('Waitlist settings saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: expect.stringContaining('/api/admin/org/waitlist'), body: { waitlist_claim_hours: 24 } });
    await waitFor(() => expect(hoursInput()).toHaveValue('24'));
  });

  it("refuses a claim time outside 1 to 168 hours with the rule's message, before any request", async () => {
    const calls = mockFetch({ [GET_ORG]: okBody<'/api/admin/org', 'get'>(ORG) });
    renderWithProviders(<OrganizationPage />);
    await screen.findByRole('region', { name: 'Waitlist' });
    for (const typed of ['0', '169', '']) {
      fireEvent.change(hoursInput(), { target: { value: typed } });
      fireEvent.click(saveWaitlist());
      expect(await screen.findByText(WAITLIST_MESSAGES.claimHours)).toBeInTheDocument();
    }
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it("puts the API's refusal under the field", async () => {
    mockFetch({
      [GET_ORG]: okBody<'/api/admin/org', 'get'>(ORG),
      [PUT_WAITLIST]: errorBody(400, WAITLIST_MESSAGES.claimHours, { waitlist_claim_hours: WAITLIST_MESSAGES.claimHours }),
    });
    renderWithProviders(<OrganizationPage />);
    await screen.findByRole('region', { name: 'Waitlist' });
    fireEvent.change(hoursInput(), { target: { value: '48' } });
    fireEvent.click(saveWaitlist());
    expect(await screen.findByText(WAITLIST_MESSAGES.claimHours)).toBeInTheDocument();
    expect(hoursInput().closest('.ant-form-item')).toHaveClass('ant-form-item-has-error');
  });

  it('shows staff the claim time without a Save', async () => {
    mockFetch({ [GET_ORG]: okBody<'/api/admin/org', 'get'>(ORG) });
    renderWithProviders(<OrganizationPage />, { ...TEST_SESSION, user: { ...TEST_SESSION.user, role: 'staff' } });
    await screen.findByRole('region', { name: 'Waitlist' });
    expect(hoursInput()).toHaveValue('12');
    expect(screen.queryByRole('button', { name: 'Save waitlist settings' })).not.toBeInTheDocument();
  });
});
