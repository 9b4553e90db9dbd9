import { lazy } from 'react';
import type { DrawerRegistry } from '@studio/ui';

/** Drawers of this remote by type name; the first one is what the bundle budget measures. */
export const drawers: DrawerRegistry = {
  super_admin: lazy(() =>
    import(/* webpackChunkName: "drawer-super_admin" */ './super-admin/super-admin.drawer').then((m) => ({
      default: m.SuperAdminDrawer,
    })),
  ),
};
