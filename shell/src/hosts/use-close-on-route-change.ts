import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

/** Runs close() when the path changes after the first render (drawers and modals close on navigation). */
export function useCloseOnRouteChange(close: () => void): void {
  const { pathname } = useLocation();
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    close();
  }, [pathname, close]);
}
