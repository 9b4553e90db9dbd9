import {
  lazy,
  Suspense,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentType,
  type LazyExoticComponent,
} from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { DRAWER_WIDTH, hasFullscreenToggle, isDrawerType, type DrawerType } from '@studio/contracts';
import {
  Button,
  Drawer,
  DRAWER_BODY_STYLE,
  Empty,
  FullscreenExitOutlined,
  FullscreenOutlined,
  LoadingSkeleton,
  readFullscreen,
  RemoteErrorBoundary,
  RemoteRegistryContext,
  Tooltip,
  UnsavedChangesContext,
  useDrawer,
  useUnsavedChangesGuard,
  writeFullscreen,
  type DrawerData,
  type DrawerProps,
} from '@studio/ui';
import { drawerRemote, loadDrawerRegistry } from '../federation/remotes';

function NotAvailableYet() {
  return <Empty description="This panel is not available yet" />;
}

/**
 * Which remote opens a drawer type, by the manifest: undefined while it is read, null when no remote
 * lists the type (nothing is shown), an Error when the manifest (or a remote's mfe.json) could not
 * be read, shown in the drawer.
 */
function useDrawerRemote(type: string | null): string | null | undefined | Error {
  const [found, setFound] = useState<{ type: string; remote: string | null | Error }>();
  useEffect(() => {
    if (!type) return;
    let live = true;
    drawerRemote(type).then(
      (remote) => live && setFound({ type, remote }),
      (error: unknown) =>
        live && setFound({ type, remote: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
    };
  }, [type]);
  if (!type) return null;
  return found?.type === type ? found.remote : undefined;
}

type LazyDrawer = LazyExoticComponent<ComponentType<DrawerProps>>;

/**
 * One lazy component per drawer type, kept outside React (as the remote pages' are): a drawer opened
 * in a transition may suspend, and a render thrown away takes a lazy made in it along, so it would be
 * made (and its remote asked) again. A failed one stays failed until Retry forgets it.
 */
const drawerComponents = new Map<string, LazyDrawer>();

/** Forgets every drawer component loaded (tests start each case from none). */
export function forgetDrawerComponents(): void {
  drawerComponents.clear();
}

function drawerComponent(type: string): LazyDrawer {
  let found = drawerComponents.get(type);
  if (!found) {
    found = lazy(async (): Promise<{ default: ComponentType<DrawerProps> }> => {
      // The manifest's read is shared; after a failure it is read again.
      const owner = await drawerRemote(type);
      if (owner === null) return { default: NotAvailableYet };
      const registry = await loadDrawerRegistry(owner);
      const Found = registry[type];
      if (!Found) return { default: NotAvailableYet };
      // Registry entries are themselves React.lazy, and a lazy may not resolve to a lazy: wrap it.
      return { default: (props: DrawerProps) => <Found {...props} /> };
    });
    drawerComponents.set(type, found);
  }
  return found;
}

/** Shows a failure already known (the manifest could not be read) through the error boundary. */
function Failed({ error }: { error: Error }): never {
  throw error;
}

/**
 * Loads the drawer component of a type from its remote; a failure surfaces to the error boundary,
 * and so does the manifest's when it could not be read (`remote` is then that Error).
 */
function RemoteDrawer({
  type,
  remote,
  data,
  close,
}: {
  type: string;
  remote: string | Error;
  data: DrawerData;
  close: () => void;
}) {
  const [failed, setFailed] = useState(remote instanceof Error ? remote : null);
  const [, setAttempt] = useState(0);
  const Component = drawerComponent(type);
  const retry = () => {
    // The loaders forgot the failed load: a fresh lazy reads the manifest and loads it again.
    drawerComponents.delete(type);
    setFailed(null);
    setAttempt((n) => n + 1);
  };
  return (
    <RemoteErrorBoundary onRetry={retry}>
      <Suspense fallback={<LoadingSkeleton />}>
        {failed ? <Failed error={failed} /> : <Component data={data} close={close} />}
      </Suspense>
    </RemoteErrorBoundary>
  );
}

/** Remembers, per drawer type, whether it was last shown full screen. */
function useFullscreen(type: DrawerType | null): [boolean, (on: boolean) => void] {
  const [state, setState] = useState<{ type: DrawerType | null; on: boolean }>({ type: null, on: false });
  const on = type !== null && state.type === type ? state.on : type !== null && readFullscreen(type);
  const set = (next: boolean) => {
    if (!type) return;
    writeFullscreen(type, next);
    setState({ type, on: next });
  };
  return [on, set];
}

/**
 * Closes the drawer when the path changes; with unsaved changes it asks first, and "Keep editing"
 * goes back to the page the drawer was opened on.
 */
function useRouteChangeClose(onLeave: (from: string, to: string) => void): void {
  const { pathname } = useLocation();
  const shownPath = useRef(pathname);
  const latest = useRef(onLeave);
  latest.current = onLeave;
  useEffect(() => {
    if (shownPath.current === pathname) return;
    const from = shownPath.current;
    shownPath.current = pathname;
    latest.current(from, pathname);
  }, [pathname]);
}

/**
 * Spec 001 §2: opens a drawer by type name, from the remote whose manifest entry lists it (the
 * manifest is the routing table); types no remote lists show nothing; closes on route change.
 * A drawer whose form has unsaved changes (useUnsavedChanges) asks before its backdrop, close
 * button, Escape or a route change closes it. Only event drawers have the fullscreen toggle.
 */
export function DrawerHost() {
  const { current, close } = useDrawer();
  const guard = useUnsavedChangesGuard();
  const navigate = useNavigate();
  // Any type a remote lists in the manifest opens, spec types and new ones alike.
  const type = current && typeof current.type === 'string' ? current.type : null;
  const remote = useDrawerRemote(type);
  const specType = type && isDrawerType(type) ? type : null;
  const [fullscreen, setFullscreen] = useFullscreen(specType);

  const data = current?.data;
  const closeAndNotify = () => {
    guard.reset();
    close();
    data?.onClose?.();
  };
  /** Backdrop, close button and Escape. */
  const requestClose = () => {
    void guard.confirmDiscard().then((discard) => {
      if (discard) closeAndNotify();
    });
  };

  // The drawer's Cancel (useCancel) closes as the close button does; the ref keeps the context stable.
  const requestCloseRef = useRef(requestClose);
  useEffect(() => {
    requestCloseRef.current = requestClose;
  });
  const registry = useMemo(
    () => ({ ...guard.registry, requestClose: () => requestCloseRef.current() }),
    [guard.registry],
  );

  const returningTo = useRef<string | null>(null);
  useRouteChangeClose((from, to) => {
    if (returningTo.current === to) {
      returningTo.current = null;
      return;
    }
    if (!current) return;
    if (!guard.isDirty()) {
      guard.reset();
      close();
      return;
    }
    void guard.confirmDiscard().then((discard) => {
      if (discard) {
        close();
        return;
      }
      returningTo.current = from;
      navigate(from, { replace: true });
    });
  });

  if (!current || !type || !data || remote === undefined || remote === null) return null;

  const showsToggle = specType !== null && hasFullscreenToggle(specType);
  const size =
    showsToggle && fullscreen
      ? DRAWER_WIDTH.fullscreen
      : type === 'share'
        ? DRAWER_WIDTH.narrow
        : DRAWER_WIDTH.default;
  const toggle = !showsToggle ? null : (
    <Tooltip title={fullscreen ? 'Exit full screen' : 'Full screen'}>
      <Button
        type="text"
        aria-label={fullscreen ? 'Exit full screen' : 'Full screen'}
        icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
        onClick={() => setFullscreen(!fullscreen)}
      />
    </Tooltip>
  );

  return (
    <Drawer
      open
      size={size}
      onClose={requestClose}
      extra={toggle}
      destroyOnHidden
      // The drawer kit's DrawerShell fills the body: its sections scroll above a footer that stays put.
      styles={{ body: DRAWER_BODY_STYLE }}
      rootClassName={`studio-drawer-${type}`}
    >
      {/* Drawers may show dialogs another remote registers (mfe-students' add_student). */}
      <RemoteRegistryContext.Provider value={loadDrawerRegistry}>
        <UnsavedChangesContext.Provider value={registry}>
          {/* The drawer's own close (after a save) does not ask; its Cancel (useCancel) does. */}
          <RemoteDrawer key={type} type={type} remote={remote} data={data} close={closeAndNotify} />
        </UnsavedChangesContext.Provider>
      </RemoteRegistryContext.Provider>
    </Drawer>
  );
}
