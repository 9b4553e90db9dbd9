import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import {
  mfeDescriptorSchema,
  mfeDescriptorUrl,
  parseMfeManifest,
  remoteForDrawer,
  type MfeManifest,
} from '@studio/contracts';
import { explainRemoteError, type DrawerRegistry, type PageRegistry } from '@studio/ui';

let manifest: Promise<MfeManifest> | null = null;

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
      // An entry in the old shape (name -> URL) lists no drawers: its build's mfe.json says them (and its pages).
      await Promise.all(
        Object.values(entries)
          .filter((entry) => !entry.drawers)
          .map(async (entry) => {
            try {
              const response = await fetch(mfeDescriptorUrl(entry.entry, globalThis.location.href));
              if (!response.ok) throw new Error(`answered ${response.status}`);
              const descriptor = mfeDescriptorSchema.parse(await response.json());
              entry.drawers = descriptor.drawers;
              entry.pages ??= descriptor.pages;
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

/** Forgets the manifest read, so the next read fetches it (and every remote's mfe.json) again. */
export function forgetManifest(): void {
  manifest = null;
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

/** What a remote exposes, by its federation module name ('./drawers', './pages'). */
interface Exposed {
  drawers: DrawerRegistry;
  pages: PageRegistry;
}

const loaded = new Map<string, Promise<unknown>>();

/** One module a remote exposes, loaded once. A failed load is forgotten so Retry refetches. */
function loadExposed<K extends keyof Exposed>(remote: string, name: K): Promise<Exposed[K]> {
  const key = `${remote}/${name}`;
  let found = loaded.get(key) as Promise<Exposed[K]> | undefined;
  if (!found) {
    found = readManifest()
      .then((entries) => {
        if (!entries[remote]) throw new Error(`No remote entry for ${remote} in /mfe-manifest.json`);
        return loadRemote<Partial<Exposed>>(`mfe_${remote}/${name}`);
      })
      .then((module) => {
        const value = module?.[name];
        if (!value) throw new Error(`mfe_${remote} exposes no ${name}`);
        return value as Exposed[K];
      })
      .catch((error: unknown) => {
        loaded.delete(key);
        throw explainRemoteError(error, remote);
      });
    loaded.set(key, found);
  }
  return found;
}

/** The drawer registry a remote exposes as './drawers'. */
export function loadDrawerRegistry(remote: string): Promise<DrawerRegistry> {
  return loadExposed(remote, 'drawers');
}

/** The page registry a remote exposes as './pages'. */
export function loadPageRegistry(remote: string): Promise<PageRegistry> {
  return loadExposed(remote, 'pages');
}
