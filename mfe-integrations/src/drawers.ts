import { lazy } from 'react';
import type { DrawerRegistry } from '@studio/ui';

/** Drawers of this remote by type name; the first one is what the bundle budget measures. */
export const drawers: DrawerRegistry = {
  super_admin: lazy(() =>
    import(/* webpackChunkName: "drawer-super_admin" */ './super-admin/super-admin.drawer').then((m) => ({
      default: m.SuperAdminDrawer,
    })),
  ),
  eventbrite: lazy(() =>
    import(/* webpackChunkName: "drawer-sync" */ './sync/sync-provider.drawer').then((m) => ({
      default: m.EventbriteDrawer,
    })),
  ),
  mailchimp: lazy(() =>
    import(/* webpackChunkName: "drawer-sync" */ './sync/sync-provider.drawer').then((m) => ({
      default: m.MailchimpDrawer,
    })),
  ),
  klaviyo: lazy(() =>
    import(/* webpackChunkName: "drawer-sync" */ './sync/sync-provider.drawer').then((m) => ({
      default: m.KlaviyoDrawer,
    })),
  ),
  zoom: lazy(() =>
    import(/* webpackChunkName: "drawer-sync" */ './sync/sync-provider.drawer').then((m) => ({
      default: m.ZoomDrawer,
    })),
  ),
};
