/**
 * The route table's paths (Fastify's syntax: static segments and `:param` segments) matched as the
 * API process's router matches them (backend/src/app.factory.ts): static segments ignore case, a
 * trailing slash is ignored, a parameter is one non-empty segment, percent-decoded. Where two
 * paths match, the one with more static segments wins, as in Fastify.
 */
export interface RouteMatch<R> {
  route: R;
  params: Record<string, string>;
}

export function matchRoute<R extends { path: string }>(
  routes: readonly R[],
  pathname: string,
): RouteMatch<R> | null {
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const segments = trimmed.split('/');
  let best: (RouteMatch<R> & { statics: number }) | null = null;
  for (const route of routes) {
    const pattern = route.path.split('/');
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let statics = 0;
    let matched = true;
    for (let i = 0; i < pattern.length && matched; i++) {
      const part = pattern[i];
      const segment = segments[i];
      if (part.startsWith(':')) {
        const value = decode(segment);
        if (!value) matched = false;
        else params[part.slice(1)] = value;
      } else if (part.toLowerCase() === segment.toLowerCase()) {
        statics += 1;
      } else {
        matched = false;
      }
    }
    if (matched && (!best || statics > best.statics)) best = { route, params, statics };
  }
  return best && { route: best.route, params: best.params };
}

/** A segment percent-decoded; '' when it is empty or not valid percent-encoding. */
function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}
