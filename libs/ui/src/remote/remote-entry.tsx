import { createContext, useContext, useEffect, useState } from 'react';
import type { DrawerComponent, DrawerRegistry } from '../drawer/drawer-types';

export type RemoteName = 'courses' | 'orders' | 'students' | 'integrations';

/** Loads another remote's registry. The shell's drawer host provides it; alone it loads nothing. */
export type RegistryLoader = (remote: RemoteName) => Promise<DrawerRegistry>;

export const RemoteRegistryContext = createContext<RegistryLoader>(() =>
  Promise.reject(new Error('No remote registry loader: render inside the shell drawer host')),
);

/**
 * A component another remote registers under a name that is not a drawer type (a dialog such as
 * mfe-students' add_student), so a drawer of one remote can show another remote's dialog.
 * Undefined while loading; null when the remote or the entry is missing (logged).
 */
export function useRemoteEntry(remote: RemoteName, name: string): DrawerComponent | null | undefined {
  const load = useContext(RemoteRegistryContext);
  const [entry, setEntry] = useState<{ component: DrawerComponent | null } | undefined>();
  useEffect(() => {
    let live = true;
    load(remote)
      .then((registry) => {
        const Found = registry[name];
        if (!Found) console.error(`mfe_${remote} has no entry ${name}`);
        // A registry entry may be React.lazy: it renders inside the caller's Suspense.
        if (live) setEntry({ component: (Found as DrawerComponent | undefined) ?? null });
      })
      .catch((error: unknown) => {
        console.error(`Could not load mfe_${remote}`, error);
        if (live) setEntry({ component: null });
      });
    return () => {
      live = false;
    };
  }, [load, remote, name]);
  return entry?.component;
}
