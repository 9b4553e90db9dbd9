import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import {
  mfeDescriptorSchema,
  mfeDescriptorUrl,
  parseMfeManifest,
  remoteForDrawer,
  type MfeManifest,
} from '@studio/contracts';
import { explainRemoteError, type DrawerRegistry } from '@studio/ui';

let manifest: Promise<MfeManifest> | null = null;
const registries = new Map<string, Promise<DrawerRegistry>>();

/** Reads /mfe-manifest.json once and registers every remote it names (not loaded until used). */
export function readManifest(): Promise<MfeManifest> {
  manifest ??= fetch('/mfe-manifest.json')
    .then((response) => {
      if (!response.ok) throw new Error(`/mfe-manifest.json answered ${response.status}`);
      return response.json() as Promise<unknown>;
    })
    .then(async (body) => {
      const entries = parseMfeManifest(body);
      registerRemotes(
        Object.entries(entries).map(([key, { entry }]) => ({ name: `mfe_${key}`, entry })),
        { force: true },
      );
      // An entry in the old shape (name -> URL) lists no drawers: its build's mfe.json says them.
      await Promise.all(
        Object.values(entries)
          .filter((entry) => !entry.drawers)
          .map(async (entry) => {
            try {
              const response = await fetch(mfeDescriptorUrl(entry.entry, globalThis.location.href));
              if (!response.ok) throw new Error(`answered ${response.status}`);
              const descriptor = mfeDescriptorSchema.parse(await response.json());
              entry.drawers = descriptor.drawers;
              entry.version ??= descriptor.version;
            } catch (error) {
              // That remote cannot be reached: its drawers stay unknown until the page reloads.
              console.error(`Could not read the mfe.json of ${entry.entry}`, error);
            }
          }),
      );
      return entries;
    })
    .catch((error: unknown) => {
      manifest = null;
      throw error;
    });
  return manifest;
}

/**
 * Which remote opens a drawer type: the one whose manifest entry lists it (null: none does, the
 * type shows nothing). Rejects when the manifest cannot be read, or when the type is not found
 * while a remote's drawers are unknown (its mfe.json unreachable): that drawer shows the failure.
 */
export async function drawerRemote(type: string): Promise<string | null> {
  const entries = await readManifest();
  const remote = remoteForDrawer(entries, type);
  if (remote) return remote;
  const unknown = Object.entries(entries).filter(([, entry]) => !entry.drawers);
  if (unknown.length) {
    // Read them again on the next try (Retry).
    manifest = null;
    throw new Error(
      `Could not reach ${unknown.map(([key]) => `mfe_${key}`).join(', ')} to find drawer ${type}`,
    );
  }
  return null;
}

/** The drawer registry a remote exposes as './drawers'. A failed load is forgotten so Retry refetches. */
export function loadDrawerRegistry(remote: string): Promise<DrawerRegistry> {
  let registry = registries.get(remote);
  if (!registry) {
    registry = readManifest()
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
        throw explainRemoteError(error, remote);
      });
    registries.set(remote, registry);
  }
  return registry;
}
