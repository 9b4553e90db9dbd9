import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { DrawerRegistry } from '@studio/ui';

export type RemoteKey = 'courses' | 'orders' | 'students' | 'integrations';
export type RemoteManifest = Partial<Record<RemoteKey, string>>;

let manifest: Promise<RemoteManifest> | null = null;
const registries = new Map<RemoteKey, Promise<DrawerRegistry>>();

/** Reads /mfe-manifest.json once and registers every remote it names (not loaded until used). */
function remotes(): Promise<RemoteManifest> {
  manifest ??= fetch('/mfe-manifest.json')
    .then((response) => {
      if (!response.ok) throw new Error(`/mfe-manifest.json answered ${response.status}`);
      return response.json() as Promise<RemoteManifest>;
    })
    .then((entries) => {
      registerRemotes(
        Object.entries(entries).map(([key, entry]) => ({ name: `mfe_${key}`, entry: String(entry) })),
        { force: true },
      );
      return entries;
    })
    .catch((error: unknown) => {
      manifest = null;
      throw error;
    });
  return manifest;
}

/** The drawer registry a remote exposes as './drawers'. A failed load is forgotten so Retry refetches. */
export function loadDrawerRegistry(remote: RemoteKey): Promise<DrawerRegistry> {
  let registry = registries.get(remote);
  if (!registry) {
    registry = remotes()
      .then((entries) => {
        if (!entries[remote]) throw new Error(`No remote entry for ${remote} in /mfe-manifest.json`);
        return loadRemote<{ drawers: DrawerRegistry }>(`mfe_${remote}/drawers`);
      })
      .then((module) => {
        if (!module?.drawers) throw new Error(`mfe_${remote} exposes no drawers`);
        return module.drawers;
      })
      .catch((error: unknown) => {
        registries.delete(remote);
        throw error;
      });
    registries.set(remote, registry);
  }
  return registry;
}
