import { lazy } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router-dom';
import { Providers } from '@studio/ui/testing';
import { useState } from 'react';
import {
  DISCARD_CHANGES_CONFIRM,
  useDrawer,
  useCancel,
  useUnsavedChanges,
  type DrawerData,
  RemoteVersionError,
  type DrawerProps,
} from '@studio/ui';
import { parseMfeManifest, remoteForDrawer } from '@studio/contracts';
import { DrawerHost, forgetDrawerComponents } from './drawer-host';
import { drawerRemote, loadDrawerRegistry } from '../federation/remotes';

jest.mock('../federation/remotes', () => ({ loadDrawerRegistry: jest.fn(), drawerRemote: jest.fn() }));
const loadRegistry = loadDrawerRegistry as jest.MockedFunction<typeof loadDrawerRegistry>;
const findRemote = drawerRemote as jest.MockedFunction<typeof drawerRemote>;

/** The manifest the host routes by (remote-drawers reads it from /mfe-manifest.json). */
const MANIFEST = parseMfeManifest({
  courses: { entry: '/mfe/courses/remoteEntry.js', drawers: ['share', 'event', 'course_builder'] },
  orders: { entry: 'https://cdn.example.com/orders/remoteEntry.js', drawers: ['discount', 'refund_report'] },
  students: { entry: '/mfe/students/remoteEntry.js', drawers: ['student'] },
});

function FakeDrawer({ data, close }: DrawerProps) {
  return (
    <div>
      <p>Fake drawer for {String(data.label)}</p>
      <button onClick={close}>Done</button>
    </div>
  );
}

/** A drawer with a form: typing makes it dirty, Save closes it itself, Cancel asks first. */
function FormDrawer({ close }: DrawerProps) {
  const [name, setName] = useState('');
  useUnsavedChanges(name !== '');
  const cancel = useCancel(close);
  return (
    <div>
      <label>
        Course name
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <button onClick={close}>Save</button>
      <button onClick={cancel}>Cancel</button>
    </div>
  );
}

let api: ReturnType<typeof useDrawer>;
let location: string;
function Where() {
  location = useLocation().pathname;
  return null;
}
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
        <Where />
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
  // Each case names its own remotes: no drawer component a case before loaded.
  forgetDrawerComponents();
  clearCookies();
  loadRegistry.mockReset();
  findRemote.mockReset();
  findRemote.mockImplementation(async (type) => remoteForDrawer(MANIFEST, type));
  // Remotes register their drawers as React.lazy components.
  loadRegistry.mockResolvedValue({
    share: FakeDrawer,
    discount: lazy(async () => ({ default: FakeDrawer })),
    student: FakeDrawer,
    event: FakeDrawer,
    refund_report: FakeDrawer,
    course_builder: FormDrawer,
  });
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('DrawerHost', () => {
  it('shows nothing for a type no remote lists in the manifest', async () => {
    renderHost();
    open('not_a_drawer', { label: 'x' });
    await waitFor(() => expect(findRemote).toHaveBeenCalledWith('not_a_drawer'));
    // A spec type that no remote of this manifest provides shows nothing either.
    open('subscription', { label: 'y' });
    await waitFor(() => expect(findRemote).toHaveBeenCalledWith('subscription'));
    await act(async () => undefined);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(loadRegistry).not.toHaveBeenCalled();
  });

  it('opens a drawer from the remote whose manifest entry lists it, with its data', async () => {
    renderHost();
    open('discount', { label: 'Spring sale' });
    expect(await screen.findByText('Fake drawer for Spring sale')).toBeInTheDocument();
    expect(loadRegistry).toHaveBeenCalledWith('orders');
    open('student', { label: 'Ann' });
    expect(await screen.findByText('Fake drawer for Ann')).toBeInTheDocument();
    expect(loadRegistry).toHaveBeenLastCalledWith('students');
  });

  it("loads a drawer type's component once: closing and opening it again asks its remote no more", async () => {
    renderHost();
    open('discount', { label: 'Spring sale' });
    await screen.findByText('Fake drawer for Spring sale');
    fireEvent.click(document.querySelector('.ant-drawer-mask')!);
    await waitFor(() => expect(screen.queryByText('Fake drawer for Spring sale')).not.toBeInTheDocument());
    open('discount', { label: 'Summer sale' });
    expect(await screen.findByText('Fake drawer for Summer sale')).toBeInTheDocument();
    expect(loadRegistry).toHaveBeenCalledTimes(1);
  });

  it('opens a drawer type the shell was never built with, once a remote lists it', async () => {
    renderHost();
    open('refund_report', { label: 'March' });
    expect(await screen.findByText('Fake drawer for March')).toBeInTheDocument();
    expect(loadRegistry).toHaveBeenCalledWith('orders');
  });

  it('shows in the drawer that the manifest could not be read, and Retry reads it again', async () => {
    findRemote.mockRejectedValueOnce(new Error('/mfe-manifest.json answered 502'));
    renderHost();
    open('discount', { label: 'sale' });
    expect(await screen.findByText('This panel could not be loaded')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Fake drawer for sale')).toBeInTheDocument();
  });

  it('shows why a remote built for newer shared libraries is refused, without a retry', async () => {
    loadRegistry.mockRejectedValueOnce(
      new RemoteVersionError('mfe_orders needs react-hook-form ^99.0.0, but this admin offers 7.92.0.'),
    );
    renderHost();
    open('discount', { label: 'sale' });
    expect(await screen.findByText('This panel needs a newer version of the admin')).toBeInTheDocument();
    expect(
      screen.getByText(/mfe_orders needs react-hook-form \^99\.0\.0, but this admin offers 7\.92\.0/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it("explains the federation runtime's refusal when a drawer's own chunk needs a newer shared library", async () => {
    loadRegistry.mockResolvedValueOnce({
      discount: lazy(() =>
        Promise.reject(
          new Error(
            '[ Federation Runtime ]: Version 7.92.0 from shell of shared singleton module react-hook-form does not satisfy the requirement of undefined which needs ^99.0.0)',
          ),
        ),
      ),
    });
    renderHost();
    open('discount', { label: 'sale' });
    expect(
      await screen.findByText(
        /^This panel needs react-hook-form \^99\.0\.0, but this admin offers 7\.92\.0\./,
      ),
    ).toBeInTheDocument();
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

  it('remembers full screen of the event drawer in a one-year cookie', async () => {
    const writes = recordCookieWrites();
    const first = renderHost();
    open('event', { label: 'Wheel night' });
    await screen.findByText('Fake drawer for Wheel night');
    fireEvent.click(screen.getByRole('button', { name: 'Full screen' }));
    expect(
      writes.some((w) => w.startsWith('drawer_fullscreen_event=true') && w.includes('max-age=31536000')),
    ).toBe(true);
    expect(document.querySelector<HTMLElement>('.ant-drawer-content-wrapper')!.style.width).toBe('100%');
    first.unmount();

    // A new page reads the choice back for the event drawer only.
    renderHost();
    open('event', { label: 'again' });
    await screen.findByText('Fake drawer for again');
    expect(document.querySelector<HTMLElement>('.ant-drawer-content-wrapper')!.style.width).toBe('100%');
    expect(screen.getByRole('button', { name: 'Exit full screen' })).toBeInTheDocument();
    open('student', { label: 'Ann' });
    await screen.findByText('Fake drawer for Ann');
    expect(document.querySelector<HTMLElement>('.ant-drawer-content-wrapper')!.style.width).toBe('820px');
  });

  it.each(['discount', 'student', 'share', 'course_builder'])(
    'has no fullscreen toggle on the %s drawer (spec 001 §2: event drawers only)',
    async (type) => {
      document.cookie = `drawer_fullscreen_${type}=true; path=/`;
      renderHost();
      open(type, { label: type });
      await screen.findByRole('dialog');
      await waitFor(() => expect(loadRegistry).toHaveBeenCalled());
      expect(screen.queryByRole('button', { name: 'Full screen' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Exit full screen' })).not.toBeInTheDocument();
      // An old cookie does not make it full width either.
      expect(document.querySelector<HTMLElement>('.ant-drawer-content-wrapper')!.style.width).not.toBe(
        '100%',
      );
    },
  );

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

describe('DrawerHost: unsaved changes', () => {
  async function openDirtyForm(onClose = jest.fn()) {
    renderHost();
    open('course_builder', { onClose });
    fireEvent.change(await screen.findByLabelText('Course name'), { target: { value: 'Half-typed' } });
    return onClose;
  }
  const confirmBox = confirmDialog;
  const noConfirm = () => expect(screen.queryAllByText(DISCARD_CHANGES_CONFIRM.title)).toHaveLength(0);
  const drawerStays = () => expect(screen.getByLabelText('Course name')).toHaveValue('Half-typed');

  it('asks "Discard unsaved changes?" on a backdrop click, and Keep editing keeps what was typed', async () => {
    const onClose = await openDirtyForm();
    fireEvent.click(document.querySelector('.ant-drawer-mask')!);
    fireEvent.click(
      within(await confirmBox()).getByRole('button', { name: DISCARD_CHANGES_CONFIRM.cancelText }),
    );
    await waitFor(noConfirm);
    drawerStays();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes after Discard from the close button, and runs data.onClose', async () => {
    const onClose = await openDirtyForm();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(within(await confirmBox()).getByRole('button', { name: DISCARD_CHANGES_CONFIRM.okText }));
    await waitFor(() => expect(screen.queryByLabelText('Course name')).not.toBeInTheDocument());
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("asks from the drawer's own Cancel button, and Discard closes it", async () => {
    const onClose = await openDirtyForm();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(
      within(await confirmBox()).getByRole('button', { name: DISCARD_CHANGES_CONFIRM.cancelText }),
    );
    await waitFor(noConfirm);
    drawerStays();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(await confirmBox()).getByRole('button', { name: DISCARD_CHANGES_CONFIRM.okText }));
    await waitFor(() => expect(screen.queryByLabelText('Course name')).not.toBeInTheDocument());
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('asks on Escape too', async () => {
    await openDirtyForm();
    fireEvent.keyDown(screen.getByLabelText('Course name'), { key: 'Escape', code: 'Escape', keyCode: 27 });
    fireEvent.click(
      within(await confirmBox()).getByRole('button', { name: DISCARD_CHANGES_CONFIRM.cancelText }),
    );
    await waitFor(noConfirm);
    drawerStays();
  });

  it('asks on a route change; Keep editing returns to the page with the drawer still open', async () => {
    await openDirtyForm();
    act(() => navigate('/admin/orders'));
    fireEvent.click(
      within(await confirmBox()).getByRole('button', { name: DISCARD_CHANGES_CONFIRM.cancelText }),
    );
    await waitFor(() => expect(location).toBe('/admin/courses'));
    drawerStays();
    noConfirm();

    act(() => navigate('/admin/students'));
    fireEvent.click(
      within(await confirmDialog()).getByRole('button', { name: DISCARD_CHANGES_CONFIRM.okText }),
    );
    await waitFor(() => expect(screen.queryByLabelText('Course name')).not.toBeInTheDocument());
    expect(location).toBe('/admin/students');
  });

  it('closes without asking when nothing was typed, or when the drawer closes itself after saving', async () => {
    renderHost();
    open('course_builder');
    await screen.findByLabelText('Course name');
    fireEvent.click(document.querySelector('.ant-drawer-mask')!);
    await waitFor(() => expect(screen.queryByLabelText('Course name')).not.toBeInTheDocument());

    open('course_builder');
    fireEvent.change(await screen.findByLabelText('Course name'), { target: { value: 'Saved' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByLabelText('Course name')).not.toBeInTheDocument());
    noConfirm();
  });
});

async function confirmDialog(): Promise<HTMLElement> {
  const [title] = await screen.findAllByText(DISCARD_CHANGES_CONFIRM.title);
  return title.closest('.ant-modal') as HTMLElement;
}
