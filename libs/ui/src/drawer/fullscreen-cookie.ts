import Cookies from 'js-cookie';
import {
  FULLSCREEN_COOKIE_MAX_AGE_SECONDS,
  fullscreenCookieName,
  type DrawerType,
} from '@studio/contracts/src/ui-constants';

/** The fullscreen choice of a drawer type, remembered for one year (spec 001 §2, §9). */
export function readFullscreen(type: DrawerType): boolean {
  return Cookies.get(fullscreenCookieName(type)) === 'true';
}

export function writeFullscreen(type: DrawerType, fullscreen: boolean): void {
  Cookies.set(fullscreenCookieName(type), String(fullscreen), {
    'max-age': String(FULLSCREEN_COOKIE_MAX_AGE_SECONDS),
    path: '/',
    sameSite: 'lax',
  });
}
