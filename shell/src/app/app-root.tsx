import { BrowserRouter } from 'react-router-dom';
import { ConfigProvider } from 'antd';
// Deep imports keep the sign-in page light: the full @studio/ui singleton loads with the admin area.
import { OverlayProvider } from '@studio/ui/src/overlay/overlay-context';
import { SessionProvider } from '../session/session-provider';
import { AppRoutes } from './app-routes';

export function AppRoot() {
  return (
    <ConfigProvider theme={{ token: { colorPrimary: '#3b5bdb' } }}>
      <BrowserRouter>
        <SessionProvider>
          <OverlayProvider>
            <AppRoutes />
          </OverlayProvider>
        </SessionProvider>
      </BrowserRouter>
    </ConfigProvider>
  );
}
