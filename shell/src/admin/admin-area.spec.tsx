import { useState } from 'react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation, useNavigate, useParams } from 'react-router-dom';
import { Providers } from '@studio/ui/testing';
import { lazyPage, useRemoteEntry, type DrawerRegistry, type PageRegistry } from '@studio/ui';
import { parseMfeManifest, type MfeManifest } from '@studio/contracts';
import { AdminArea } from './admin-area';
import { AdminLayout } from './admin-layout';
import { loadDrawerRegistry, loadPageRegistry, readManifest } from '../federation/remotes';

jest.mock('../federation/remotes', () => ({
  readManifest: jest.fn(),
  forgetManifest: jest.fn(),
  loadPageRegistry: jest.fn(),
  drawerRemote: jest.fn(),
  loadDrawerRegistry: jest.fn(),
}));
const manifestRead = readManifest as jest.MockedFunction<typeof readManifest>;
const pagesLoad = loadPageRegistry as jest.MockedFunction<typeof loadPageRegistry>;
const drawersLoad = loadDrawerRegistry as jest.MockedFunction<typeof loadDrawerRegistry>;

/** Which remote brings which page is said only here, by the manifest: nothing in the shell knows it. */
const MANIFEST: MfeManifest = parseMfeManifest({
  orders: {
    entry: 'https://cdn.example.com/orders/remoteEntry.js',
    drawers: [],
    pages: [
      { path: '/admin/orders', label: 'Orders', menu: 20 },
      { path: '/admin/reports', label: 'Refund report' },
    ],
  },
  students: {
    entry: '/mfe/students/remoteEntry.js',
    drawers: [],
    pages: [{ path: '/admin/students', label: 'Students', menu: 30 }, { path: '/admin/students/:studentId' }],
  },
  courses: {
    entry: '/mfe/courses/remoteEntry.js',
    drawers: [],
    pages: [{ path: '/admin/courses', label: 'Courses', menu: 10 }],
  },
  billing: {
    entry: 'https://billing.example.com/remoteEntry.js',
    drawers: [],
    pages: [{ path: '/admin/billing', label: 'Billing', menu: 80 }],
  },
});

/** A list page that keeps a typed search in its state, and says which student the address names. */
function StudentsPage() {
  const { studentId } = useParams();
  const [search, setSearch] = useState('');
  return (
    <div>
      <h2>Students list</h2>
      <input aria-label="Search" value={search} onChange={(e) => setSearch(e.target.value)} />
      {studentId ? <p>Student {studentId} open</p> : null}
    </div>
  );
}

const studentsComponent = lazyPage(async () => ({ StudentsPage }), 'StudentsPage');
const REGISTRIES: Record<string, PageRegistry> = {
  orders: {
    '/admin/orders': { component: () => <h2>Orders list</h2> },
    '/admin/reports': { component: () => <h2>Refunds by month</h2> },
  },
  students: {
    '/admin/students': { component: studentsComponent },
    '/admin/students/:studentId': { component: studentsComponent },
  },
  courses: { '/admin/courses': { component: () => <h2>Courses list</h2> } },
  billing: { '/admin/billing': { component: () => <h2>Cards on file</h2> } },
};

/** One promise per remote, as the real loader keeps it (a page suspends on it). */
function registryLoader(registries: Record<string, PageRegistry>) {
  const promises = new Map<string, Promise<PageRegistry>>();
  return (remote: string) => {
    if (!promises.has(remote)) promises.set(remote, Promise.resolve(registries[remote]));
    return promises.get(remote)!;
  };
}

let path = '';
function Where() {
  path = useLocation().pathname;
  return null;
}

function renderAdmin(at: string) {
  return render(
    <MemoryRouter initialEntries={[at]}>
      <Providers>
        <Where />
        <Routes>
          <Route path="/admin/*" element={<AdminArea />} />
        </Routes>
      </Providers>
    </MemoryRouter>,
  );
}

const menu = () => within(screen.getByRole('navigation', { name: 'Main' }));

beforeEach(() => {
  manifestRead.mockReset().mockResolvedValue(MANIFEST);
  pagesLoad.mockReset().mockImplementation(registryLoader(REGISTRIES));
});

describe('the admin routes and menu come from the manifest (issue 20)', () => {
  it('lists the labelled pages in their menu places, unplaced last, and opens a page from its remote', async () => {
    renderAdmin('/admin/orders');
    expect(await screen.findByRole('heading', { name: 'Orders list' })).toBeInTheDocument();
    expect(pagesLoad).toHaveBeenCalledWith('orders');
    const items = menu()
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(items).toEqual(['Courses', 'Orders', 'Students', 'Billing', 'Refund report']);

    // A page no compiled table knows, listed by one remote's entry, opens from the menu.
    fireEvent.click(menu().getByText('Refund report'));
    expect(await screen.findByRole('heading', { name: 'Refunds by month' })).toBeInTheDocument();
    expect(path).toBe('/admin/reports');
  });

  it('passes route parameters, and keeps the list mounted (its typed search) when a student opens', async () => {
    // Same page component under both routes: moving between them does not remount it.
    render(
      <MemoryRouter initialEntries={['/admin/students']}>
        <Providers>
          <Routes>
            <Route path="/admin/*" element={<AdminArea />} />
          </Routes>
          <GoTo to="/admin/students/7" />
        </Providers>
      </MemoryRouter>,
    );
    fireEvent.change(await screen.findByRole('textbox', { name: 'Search' }), { target: { value: 'greta' } });
    fireEvent.click(screen.getByRole('button', { name: 'go' }));
    expect(await screen.findByText('Student 7 open')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('greta');
  });

  it('sends an unknown admin path to the courses list', async () => {
    renderAdmin('/admin/nowhere');
    expect(await screen.findByRole('heading', { name: 'Courses list' })).toBeInTheDocument();
    expect(path).toBe('/admin/courses');
  });

  it('shows a manifest that cannot be read with Retry, which reads it again', async () => {
    manifestRead.mockRejectedValueOnce(new Error('/mfe-manifest.json answered 503'));
    renderAdmin('/admin/orders');
    expect(await screen.findByText("The admin's pages could not be loaded")).toBeInTheDocument();
    expect(menu().queryAllByRole('menuitem')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Orders list' })).toBeInTheDocument();
    expect(manifestRead).toHaveBeenCalledTimes(2);
  });

  it('shows a remote that fails in its page with Retry while the menu and other pages work', async () => {
    const working = registryLoader(REGISTRIES);
    let billingDown = true;
    pagesLoad.mockImplementation((remote) =>
      remote === 'billing' && billingDown ? Promise.reject(new Error('ChunkLoadError')) : working(remote),
    );
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAdmin('/admin/billing');
    expect(await screen.findByText('This panel could not be loaded')).toBeInTheDocument();

    // Route changes are transitions: act lets React finish each as a browser would.
    await act(async () => fireEvent.click(menu().getByText('Courses')));
    expect(await screen.findByRole('heading', { name: 'Courses list' })).toBeInTheDocument();
    expect(screen.queryByText('This panel could not be loaded')).not.toBeInTheDocument();

    // Back to the failed remote: still failed (not fetched again by itself), until Retry.
    await act(async () => fireEvent.click(menu().getByText('Billing')));
    expect(await screen.findByText('This panel could not be loaded')).toBeInTheDocument();
    expect(pagesLoad.mock.calls.filter(([remote]) => remote === 'billing')).toHaveLength(1);
    billingDown = false;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    expect(await screen.findByRole('heading', { name: 'Cards on file' })).toBeInTheDocument();
    expect(pagesLoad.mock.calls.filter(([remote]) => remote === 'billing')).toHaveLength(2);
  });

  it('shows an address of a remote it could not reach with Retry, not another page', async () => {
    // The courses remote named in the old shape, its mfe.json unreachable: its pages are unknown.
    manifestRead.mockResolvedValueOnce(
      parseMfeManifest({ ...MANIFEST, courses: { entry: 'http://127.0.0.1:9/remoteEntry.js' } }),
    );
    renderAdmin('/admin/courses');
    expect(await screen.findByText('This page could not be loaded')).toBeInTheDocument();
    expect(screen.getByText(/Could not reach mfe_courses/)).toBeInTheDocument();
    expect(path).toBe('/admin/courses');
    expect(menu().queryByText('Courses')).not.toBeInTheDocument();
    // Reached again: Retry reads the manifest afresh and the page opens.
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Courses list' })).toBeInTheDocument();
  });
});

describe('the admin layout', () => {
  it("lets a page show another remote's dialog (the Booking card's Add student is mfe-students')", async () => {
    function CourseWithDialog() {
      const Dialog = useRemoteEntry('students', 'add_student');
      return Dialog ? <Dialog data={{}} close={() => undefined} /> : <p>dialog not loaded</p>;
    }
    const dialogs: DrawerRegistry = { add_student: () => <p role="note">Add student dialog</p> };
    drawersLoad.mockReset().mockResolvedValue(dialogs);
    render(
      <MemoryRouter initialEntries={['/admin/courses/c1']}>
        <Providers>
          <Routes>
            <Route element={<AdminLayout menu={[]} />}>
              <Route path="/admin/courses/:id" element={<CourseWithDialog />} />
            </Route>
          </Routes>
        </Providers>
      </MemoryRouter>,
    );
    expect(await screen.findByRole('note')).toHaveTextContent('Add student dialog');
    expect(drawersLoad).toHaveBeenCalledWith('students');
  });
});

/** A button that moves the address, as a click on a row does. */
function GoTo({ to }: { to: string }) {
  const navigate = useNavigate();
  return <button onClick={() => navigate(to)}>go</button>;
}
