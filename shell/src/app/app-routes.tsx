import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { useSession } from '@studio/ui/src/session/session-context';
import { PageLoading } from './page-loading';
import { SignInPage } from '../sign-in/sign-in.page';

// The admin area (layout, hosts, pages and the full @studio/ui) loads only after sign-in.
const AdminArea = lazy(() =>
  import(/* webpackChunkName: "admin" */ '../admin/admin-area').then((m) => ({ default: m.AdminArea })),
);

export const SIGN_IN_PATH = '/admin/sign-in';

export function AppRoutes() {
  const { session } = useSession();
  return (
    <Routes>
      <Route
        path={SIGN_IN_PATH}
        element={session ? <Navigate to="/admin/courses" replace /> : <SignInPage />}
      />
      <Route
        path="/admin/*"
        element={
          session ? (
            <Suspense fallback={<PageLoading />}>
              <AdminArea />
            </Suspense>
          ) : (
            <Navigate to={SIGN_IN_PATH} replace />
          )
        }
      />
      <Route path="*" element={<Navigate to="/admin/courses" replace />} />
    </Routes>
  );
}
