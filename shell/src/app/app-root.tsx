import { BrowserRouter } from 'react-router-dom';
// Deep imports keep the sign-in page light: the full @studio/ui singleton loads with the admin area.
import { OverlayProvider } from '@studio/ui/src/overlay/overlay-context';
import { SessionProvider } from '../session/session-provider';
import { AppRoutes } from './app-routes';

export function AppRoot() {
  return (
    // No antd here: its ConfigProvider (theme) wraps the admin area, which loads after sign-in.
    <BrowserRouter>
      <SessionProvider>
        <OverlayProvider>
          <AppRoutes />
        </OverlayProvider>
      </SessionProvider>
    </BrowserRouter>
  );
}
