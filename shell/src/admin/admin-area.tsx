import { useEffect, useState } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { App, ConfigProvider, QueryClientProvider, createAppQueryClient } from '@studio/ui';
import { APP_FONT_FAMILY, APP_PRIMARY_COLOR } from '../app/page-base';
import { AdminLayout } from './admin-layout';
import {
  CourseDetailPage,
  CoursesPage,
  InstructorsPage,
  LocationsPage,
  WaiverNewPage,
} from './pages/catalog-pages';
import { OrdersPage } from './pages/orders.page';
import { StudentsPage } from './pages/students/students.page';
import { ProductsPage } from './pages/products.page';
import { DiscountsPage } from './pages/discounts.page';
import { IntegrationsPage } from './pages/integrations.page';
import { SyncCallbackPage } from './pages/sync-callback.page';
import { LoyaltyPage } from './pages/settings/loyalty.page';
import { BillingPage } from './pages/settings/billing.page';
import { WaiversPage } from './pages/settings/waivers.page';

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
          <Routes>
            <Route element={<AdminLayout />}>
              <Route path="courses" element={<CoursesPage />} />
              <Route path="courses/:activityId" element={<CourseDetailPage />} />
              <Route path="settings/locations" element={<LocationsPage />} />
              <Route path="settings/instructors" element={<InstructorsPage />} />
              <Route path="settings/waivers" element={<WaiversPage />} />
              <Route path="waivers/new" element={<WaiverNewPage />} />
              <Route path="orders" element={<OrdersPage />} />
              <Route path="students" element={<StudentsPage />} />
              <Route path="students/:studentId" element={<StudentsPage />} />
              <Route path="products" element={<ProductsPage />} />
              <Route path="discounts" element={<DiscountsPage />} />
              <Route path="settings/integrations" element={<IntegrationsPage />} />
              <Route path="integrations/:provider/callback" element={<SyncCallbackPage />} />
              <Route path="settings/loyalty" element={<LoyaltyPage />} />
              <Route path="settings/billing" element={<BillingPage />} />
              <Route path="*" element={<Navigate to="/admin/courses" replace />} />
            </Route>
          </Routes>
        </App>
      </QueryClientProvider>
    </ConfigProvider>
  );
}
