import { BrowserRouter } from 'react-router-dom';
import { ConfigProvider } from 'antd';
// Deep imports keep the sign-in page light: the full @studio/ui singleton loads with the admin area.
import { OverlayProvider } from '@studio/ui/src/overlay/overlay-context';
import { SessionProvider } from '../session/session-provider';
import { AppRoutes } from './app-routes';
import { APP_FONT_FAMILY } from './page-base';

export function AppRoot() {
  return (
    <ConfigProvider theme={{ token: { colorPrimary: '#3b5bdb', fontFamily: APP_FONT_FAMILY } }}>
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
