/**
 * Client-side navigation from a remote: remotes have no router of their own, so push the URL and
 * tell the shell's router, which listens to popstate (the drawer then closes on the route change).
 */
export function navigateTo(path: string): void {
  window.history.pushState({}, '', path);
  window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
}
