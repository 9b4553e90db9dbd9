import { lazy, Suspense, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { LoadingSkeleton, RemoteErrorBoundary } from '@studio/ui';
import { loadPageRegistry } from '../federation/remotes';

type RoutedPages = LazyExoticComponent<ComponentType<{ path: string }>>;

/**
 * One lazy component per remote, kept outside React: a route change is a transition, and a render
 * that suspends in a transition is thrown away with whatever it memoized, so a lazy made in render
 * would be made (and fetched) again on every retry. A failed one stays failed until Retry forgets it.
 */
const remotePages = new Map<string, RoutedPages>();

function pagesOf(remote: string): RoutedPages {
  let found = remotePages.get(remote);
  if (!found) {
    found = lazy(async () => {
      const registry = await loadPageRegistry(remote);
      return {
        default: function RoutedPage({ path }: { path: string }) {
          const page = registry[path];
          if (!page) throw new Error(`mfe_${remote} lists ${path} but brings no such page`);
          const Page = page.component;
          return <Page />;
        },
      };
    });
    remotePages.set(remote, found);
  }
  return found;
}

/**
 * A page a remote brings (its manifest entry lists the path): loaded from the remote's './pages'
 * when the route is visited, inside an error boundary so a remote that fails shows the failure with
 * Retry while the menu and the other pages keep working. Two routes of one remote that name the
 * same component (a list and its detail) keep that page mounted between them.
 */
export function RemotePage({ remote, path }: { remote: string; path: string }) {
  const [, setAttempt] = useState(0);
  const Pages = pagesOf(remote);
  const retry = () => {
    // The loader forgot the failed load: a fresh lazy loads the remote again.
    remotePages.delete(remote);
    setAttempt((n) => n + 1);
  };
  return (
    <RemoteErrorBoundary resetKey={path} onRetry={retry}>
      <Suspense fallback={<LoadingSkeleton />}>
        <Pages path={path} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
