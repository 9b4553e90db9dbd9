import { useEffect, useState } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { ADMIN_BASE_PATH, manifestPages, menuPages } from '@studio/contracts';
import {
  App,
  Button,
  ConfigProvider,
  QueryClientProvider,
  Result,
  createAppQueryClient,
  LoadingSkeleton,
  useQuery,
} from '@studio/ui';
import { APP_FONT_FAMILY, APP_PRIMARY_COLOR } from '../app/page-base';
import { forgetManifest, readManifest } from '../federation/remotes';
import { RemotePage } from '../hosts/remote-page';
import { AdminLayout, type MenuEntry } from './admin-layout';

/** Where an unknown admin path goes: the courses list, or the first page of the menu. */
const HOME = '/admin/courses';

/**
 * Everything behind sign-in, loaded as one lazy chunk. antd's ConfigProvider (the theme), its App
 * (toasts) and TanStack Query's client live here, off the sign-in page.
 */
const THEME = { token: { colorPrimary: APP_PRIMARY_COLOR, fontFamily: APP_FONT_FAMILY } };

export function AdminArea() {
  // One cache per signed-in visit: signing out unmounts the area and drops what was read.
  const [queryClient] = useState(createAppQueryClient);
  useEffect(() => () => queryClient.clear(), [queryClient]);
  return (
    <ConfigProvider theme={THEME}>
      <QueryClientProvider client={queryClient}>
        <App>
          <AdminRoutes />
        </App>
      </QueryClientProvider>
    </ConfigProvider>
  );
}

/**
 * The admin's routes come from the manifest (issue 20): each page a remote lists is routed to that
 * remote, and the menu lists the labelled ones. Nothing about which team owns which page is
 * compiled into the shell; the layout, hosts and navigation are the shell's own.
 */
function AdminRoutes() {
  const manifest = useQuery({
    queryKey: ['mfe-manifest'],
    queryFn: readManifest,
    staleTime: Infinity,
    retry: false,
  });
  const pages = manifest.data ? manifestPages(manifest.data) : [];
  const menu: MenuEntry[] = manifest.data
    ? menuPages(manifest.data).map((page) => ({ key: page.path, label: page.label ?? page.path }))
    : [];
  const home = pages.some((page) => page.path === HOME) ? HOME : (menu[0]?.key ?? HOME);
  // A remote whose mfe.json could not be read: its pages are unknown, so an address no known page
  // takes may be one of them. It shows the failure with Retry instead of sending the owner away.
  const unreachable = manifest.data
    ? Object.entries(manifest.data)
        .filter(([, entry]) => !entry.drawers)
        .map(([key]) => `mfe_${key}`)
    : [];
  const retry = () => {
    forgetManifest();
    void manifest.refetch();
  };
  return (
    <Routes>
      <Route element={<AdminLayout menu={menu} />}>
        {pages.map((page) => (
          <Route
            key={page.path}
            path={page.path.slice(ADMIN_BASE_PATH.length)}
            element={<RemotePage remote={page.remote} path={page.path} />}
          />
        ))}
        <Route
          path="*"
          element={
            manifest.isPending ? (
              <LoadingSkeleton />
            ) : manifest.isError || unreachable.length ? (
              <Result
                status="error"
                title={
                  manifest.isError ? "The admin's pages could not be loaded" : 'This page could not be loaded'
                }
                subTitle={
                  manifest.isError
                    ? 'Check your connection and try again.'
                    : `Could not reach ${unreachable.join(', ')}. Check your connection and try again.`
                }
                extra={
                  <Button type="primary" onClick={retry}>
                    Retry
                  </Button>
                }
              />
            ) : (
              <Navigate to={home} replace />
            )
          }
        />
      </Route>
    </Routes>
  );
}
