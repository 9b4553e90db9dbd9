import { lazy, Suspense, useMemo, useState, type ComponentType } from 'react';
import { DRAWER_REMOTE, DRAWER_WIDTH, isDrawerType, type DrawerType } from '@studio/contracts';
import {
  Button,
  Drawer,
  Empty,
  FullscreenExitOutlined,
  FullscreenOutlined,
  LoadingSkeleton,
  readFullscreen,
  RemoteErrorBoundary,
  RemoteRegistryContext,
  Tooltip,
  useDrawer,
  writeFullscreen,
  type DrawerData,
  type DrawerProps,
} from '@studio/ui';
import { loadDrawerRegistry } from '../federation/remote-drawers';
import { useCloseOnRouteChange } from './use-close-on-route-change';

function NotAvailableYet() {
  return <Empty description="This panel is not available yet" />;
}

/** Loads the drawer component of a type from its remote; a failure surfaces to the error boundary. */
function RemoteDrawer({ type, data, close }: { type: DrawerType; data: DrawerData; close: () => void }) {
  const [attempt, setAttempt] = useState(0);
  const Component = useMemo(
    () =>
      lazy(async (): Promise<{ default: ComponentType<DrawerProps> }> => {
        const registry = await loadDrawerRegistry(DRAWER_REMOTE[type]);
        const Found = registry[type];
        if (!Found) return { default: NotAvailableYet };
        // Registry entries are themselves React.lazy, and a lazy may not resolve to a lazy: wrap it.
        return { default: (props: DrawerProps) => <Found {...props} /> };
      }),
    // attempt: a retry builds a fresh lazy component that loads again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [type, attempt],
  );
  return (
    <RemoteErrorBoundary onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={<LoadingSkeleton />}>
        <Component data={data} close={close} />
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

/** Spec 001 §2: opens a drawer by type name; unknown types show nothing; closes on route change. */
export function DrawerHost() {
  const { current, close } = useDrawer();
  useCloseOnRouteChange(close);

  const type = current && isDrawerType(current.type) ? current.type : null;
  const [fullscreen, setFullscreen] = useFullscreen(type);
  if (!current || !type) return null;

  const data = current.data;
  const closeAndNotify = () => {
    close();
    data.onClose?.();
  };
  const size = fullscreen
    ? DRAWER_WIDTH.fullscreen
    : type === 'share'
      ? DRAWER_WIDTH.narrow
      : DRAWER_WIDTH.default;
  const toggle =
    type === 'share' ? null : (
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
      onClose={closeAndNotify}
      extra={toggle}
      destroyOnHidden
      rootClassName={`studio-drawer-${type}`}
    >
      {/* Drawers may show dialogs another remote registers (mfe-students' add_student). */}
      <RemoteRegistryContext.Provider value={loadDrawerRegistry}>
        <RemoteDrawer key={type} type={type} data={data} close={closeAndNotify} />
      </RemoteRegistryContext.Provider>
    </Drawer>
  );
}
