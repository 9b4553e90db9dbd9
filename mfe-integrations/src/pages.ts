import { lazyPage, type PageRegistry } from '@studio/ui';

/** Pages of this remote by route; label and menu place them in the admin's navigation (issue 20). */
export const pages: PageRegistry = {
  '/admin/settings/integrations': {
    label: 'Integrations',
    menu: 60,
    component: lazyPage(
      () => import(/* webpackChunkName: "page-integrations" */ './pages/integrations.page'),
      'IntegrationsPage',
    ),
  },
  '/admin/settings/organization': {
    label: 'Organization',
    menu: 65,
    component: lazyPage(
      () => import(/* webpackChunkName: "page-organization" */ './pages/organization.page'),
      'OrganizationPage',
    ),
  },
  '/admin/integrations/:provider/callback': {
    component: lazyPage(
      () => import(/* webpackChunkName: "page-sync-callback" */ './pages/sync-callback.page'),
      'SyncCallbackPage',
    ),
  },
};
