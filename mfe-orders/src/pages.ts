import { lazyPage, type PageRegistry } from '@studio/ui';

/** Pages of this remote by route; label and menu place them in the admin's navigation (issue 20). */
export const pages: PageRegistry = {
  '/admin/orders': {
    label: 'Orders',
    menu: 20,
    component: lazyPage(
      () => import(/* webpackChunkName: "page-orders" */ './pages/orders.page'),
      'OrdersPage',
    ),
  },
  '/admin/products': {
    label: 'Products',
    menu: 40,
    component: lazyPage(
      () => import(/* webpackChunkName: "page-products" */ './pages/products.page'),
      'ProductsPage',
    ),
  },
  '/admin/discounts': {
    label: 'Discounts',
    menu: 50,
    component: lazyPage(
      () => import(/* webpackChunkName: "page-discounts" */ './pages/discounts.page'),
      'DiscountsPage',
    ),
  },
  '/admin/settings/loyalty': {
    label: 'Loyalty',
    menu: 70,
    component: lazyPage(
      () => import(/* webpackChunkName: "page-loyalty" */ './pages/loyalty.page'),
      'LoyaltyPage',
    ),
  },
  '/admin/settings/billing': {
    label: 'Billing',
    menu: 80,
    component: lazyPage(
      () => import(/* webpackChunkName: "page-billing" */ './pages/billing.page'),
      'BillingPage',
    ),
  },
};
