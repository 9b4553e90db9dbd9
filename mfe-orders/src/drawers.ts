import { lazy } from 'react';
import type { DrawerRegistry } from '@studio/ui';

/** Drawers of this remote by type name; the first one is what the bundle budget measures. */
export const drawers: DrawerRegistry = {
  discount: lazy(() =>
    import(/* webpackChunkName: "drawer-discount" */ './discount/discount.drawer').then((m) => ({
      default: m.DiscountDrawer,
    })),
  ),
  product: lazy(() =>
    import(/* webpackChunkName: "drawer-product" */ './product/product.drawer').then((m) => ({
      default: m.ProductDrawer,
    })),
  ),
  order: lazy(() =>
    import(/* webpackChunkName: "drawer-order" */ './order/order.drawer').then((m) => ({
      default: m.OrderDrawer,
    })),
  ),
  subscription: lazy(() =>
    import(/* webpackChunkName: "drawer-subscription" */ './subscription/subscription.drawer').then((m) => ({
      default: m.SubscriptionDrawer,
    })),
  ),
};
