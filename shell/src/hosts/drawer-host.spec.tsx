import { lazy } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useNavigate } from 'react-router-dom';
import { Providers } from '@studio/ui/testing';
import { useDrawer, type DrawerData, type DrawerProps } from '@studio/ui';
import { DrawerHost } from './drawer-host';
import { loadDrawerRegistry } from '../federation/remote-drawers';

jest.mock('../federation/remote-drawers', () => ({ loadDrawerRegistry: jest.fn() }));
const loadRegistry = loadDrawerRegistry as jest.MockedFunction<typeof loadDrawerRegistry>;

function FakeDrawer({ data, close }: DrawerProps) {
  return (
    <div>
      <p>Fake drawer for {String(data.label)}</p>
      <button onClick={close}>Done</button>
    </div>
  );
}

let api: ReturnType<typeof useDrawer>;
let navigate: ReturnType<typeof useNavigate>;
function Handles() {
  api = useDrawer();
  navigate = useNavigate();
  return null;
}

function renderHost() {
  return render(
    <MemoryRouter initialEntries={['/admin/courses']}>
      <Providers>
        <Handles />
        <DrawerHost />
      </Providers>
    </MemoryRouter>,
  );
}

function open(type: string, data: DrawerData = {}) {
  act(() => api.open(type, data));
}

/** document.cookie writes as the browser receives them, attributes included. */
function recordCookieWrites(): string[] {
  const writes: string[] = [];
  const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
  jest.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
    writes.push(value);
    descriptor.set!.call(document, value);
  });
  return writes;
}

function clearCookies() {
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0].trim();
    if (name) document.cookie = `${name}=; max-age=0; path=/`;
  }
}

beforeEach(() => {
  clearCookies();
  loadRegistry.mockReset();
  // Remotes register their drawers as React.lazy components.
  loadRegistry.mockResolvedValue({
    share: FakeDrawer,
    discount: lazy(async () => ({ default: FakeDrawer })),
    student: FakeDrawer,
  });
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('DrawerHost', () => {
  it('shows nothing for a type outside the spec list', async () => {
    renderHost();
    open('not_a_drawer', { label: 'x' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(loadRegistry).not.toHaveBeenCalled();
  });

  it('opens a drawer from its remote with its data', async () => {
    renderHost();
    open('discount', { label: 'Spring sale' });
    expect(await screen.findByText('Fake drawer for Spring sale')).toBeInTheDocument();
    expect(loadRegistry).toHaveBeenCalledWith('orders');
  });

  it('closes on a backdrop click and then runs data.onClose', async () => {
    const onClose = jest.fn();
    renderHost();
    open('discount', { label: 'Spring sale', onClose });
    await screen.findByText('Fake drawer for Spring sale');
    fireEvent.click(document.querySelector('.ant-drawer-mask')!);
    await waitFor(() => expect(screen.queryByText('Fake drawer for Spring sale')).not.toBeInTheDocument());
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('runs data.onClose when the drawer closes itself', async () => {
    const onClose = jest.fn();
    renderHost();
    open('student', { label: 'Ann', onClose });
    fireEvent.click(await screen.findByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText('Fake drawer for Ann')).not.toBeInTheDocument());
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('is narrow for share and wider by default', async () => {
    renderHost();
    open('share', { label: 'course' });
    await screen.findByText('Fake drawer for course');
    expect(document.querySelector<HTMLElement>('.ant-drawer-content-wrapper')!.style.width).toBe('480px');
    open('discount', { label: 'sale' });
    await screen.findByText('Fake drawer for sale');
    expect(document.querySelector<HTMLElement>('.ant-drawer-content-wrapper')!.style.width).toBe('820px');
  });

  it('remembers full screen per drawer type in a one-year cookie', async () => {
    const writes = recordCookieWrites();
    const first = renderHost();
    open('discount', { label: 'sale' });
    await screen.findByText('Fake drawer for sale');
    fireEvent.click(screen.getByRole('button', { name: 'Full screen' }));
    expect(
      writes.some((w) => w.startsWith('drawer_fullscreen_discount=true') && w.includes('max-age=31536000')),
    ).toBe(true);
    expect(document.querySelector<HTMLElement>('.ant-drawer-content-wrapper')!.style.width).toBe('100%');
    first.unmount();

    // A new page reads the choice back for the same type only.
    renderHost();
    open('discount', { label: 'again' });
    await screen.findByText('Fake drawer for again');
    expect(document.querySelector<HTMLElement>('.ant-drawer-content-wrapper')!.style.width).toBe('100%');
    expect(screen.getByRole('button', { name: 'Exit full screen' })).toBeInTheDocument();
    open('student', { label: 'Ann' });
    await screen.findByText('Fake drawer for Ann');
    expect(document.querySelector<HTMLElement>('.ant-drawer-content-wrapper')!.style.width).toBe('820px');
  });

  it('closes on a route change', async () => {
    renderHost();
    open('discount', { label: 'sale' });
    await screen.findByText('Fake drawer for sale');
    act(() => navigate('/admin/orders'));
    await waitFor(() => expect(screen.queryByText('Fake drawer for sale')).not.toBeInTheDocument());
  });

  it('shows a failed remote inside the drawer with a retry that loads again', async () => {
    loadRegistry.mockRejectedValueOnce(new Error('remoteEntry.js unreachable'));
    renderHost();
    open('discount', { label: 'sale' });
    expect(await screen.findByText('This panel could not be loaded')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Fake drawer for sale')).toBeInTheDocument();
    expect(loadRegistry).toHaveBeenCalledTimes(2);
  });
});
