import { lazy } from 'react';
import type { DrawerRegistry } from '@studio/ui';

/** Drawers of this remote by type name; the first one is what the bundle budget measures. */
export const drawers: DrawerRegistry = {
  share: lazy(() =>
    import(/* webpackChunkName: "drawer-share" */ './share/share.drawer').then((m) => ({
      default: m.ShareDrawer,
    })),
  ),
};
