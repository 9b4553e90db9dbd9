import { z } from 'zod';

/**
 * The contract between the shell and its remotes (issue 20): `/mfe-manifest.json` names, per
 * remote, where its entry is, its version and the drawer types it provides. The shell routes a
 * drawer type to the remote whose entry lists it; nothing about ownership is compiled into the shell.
 *
 * Each remote's build writes the same facts about itself to `dist/mfe.json` (an MfeDescriptor); the
 * API builds the default manifest from those files, and the shell reads one beside a remote's entry
 * when its manifest entry does not list drawers (the old `{ name: url }` shape).
 */

/** A remote's key in the manifest: its federation name is `mfe_<key>`. */
export const MFE_REMOTE_KEY = /^[a-z][a-z0-9_]*$/;
/** A drawer type (or registry entry) name. */
export const MFE_DRAWER_TYPE = /^[a-z][a-z0-9_]*$/;

const drawerTypes = z.array(z.string().regex(MFE_DRAWER_TYPE, 'expected a drawer type such as order'));

/** Where the admin's pages live: a remote's page path starts here. */
export const ADMIN_BASE_PATH = '/admin/';

/**
 * A page a remote brings: its route (react-router's syntax, `/admin/students/:studentId`), and, for
 * a page the navigation lists, its label and its place in the menu (lower first).
 */
export const mfePageSchema = z.object({
  path: z
    .string()
    .startsWith(ADMIN_BASE_PATH, `expected a path under ${ADMIN_BASE_PATH}`)
    .regex(/^[A-Za-z0-9_/:*-]+$/, 'expected a route path such as /admin/orders'),
  label: z.string().min(1).optional(),
  menu: z.number().optional(),
});
export type MfePage = z.infer<typeof mfePageSchema>;

export const mfeManifestEntrySchema = z.object({
  /** URL of the remote's remoteEntry.js, absolute or same-origin (`/mfe/orders/remoteEntry.js`). */
  entry: z.string().min(1),
  /** The remote's own version (its package.json), for people reading the manifest and logs. */
  version: z.string().min(1).optional(),
  /** Drawer types it opens. Absent: read from `mfe.json` beside the entry. */
  drawers: drawerTypes.optional(),
  pages: z.array(mfePageSchema).optional(),
});
export type MfeManifestEntry = z.infer<typeof mfeManifestEntrySchema>;

/** Accepts the current shape and the old one (remote key -> entry URL). */
export const mfeManifestSchema = z.record(
  z.string().regex(MFE_REMOTE_KEY, 'expected a remote name such as orders'),
  z.preprocess((value) => (typeof value === 'string' ? { entry: value } : value), mfeManifestEntrySchema),
);
export type MfeManifest = Record<string, MfeManifestEntry>;

/** What a remote's build writes to `dist/mfe.json`. */
export const mfeDescriptorSchema = z.object({
  /** Federation name, `mfe_<key>`. */
  name: z.string().regex(/^mfe_[a-z][a-z0-9_]*$/),
  version: z.string().min(1),
  drawers: drawerTypes,
  pages: z.array(mfePageSchema).optional(),
  /** The shared libraries it takes from the shell, each with the version range it needs. */
  shared: z.record(z.string(), z.string()).optional(),
});
export type MfeDescriptor = z.infer<typeof mfeDescriptorSchema>;

/** Parses a manifest; throws a message naming the remote and field that is wrong. */
export function parseMfeManifest(value: unknown): MfeManifest {
  const parsed = mfeManifestSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid MFE manifest at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * `defaults` with `overrides` laid over them remote by remote: a manifest naming only some remotes
 * keeps the default entry of the others. An override without drawers (old shape) keeps no drawers
 * of the default: it may be another build of the remote, so the shell reads its own mfe.json.
 */
export function mergeMfeManifests(defaults: MfeManifest, overrides: MfeManifest): MfeManifest {
  return { ...defaults, ...overrides };
}

/** The remote whose manifest entry lists a drawer type (the first one, in manifest order), or null. */
export function remoteForDrawer(manifest: MfeManifest, type: string): string | null {
  for (const [key, entry] of Object.entries(manifest)) if (entry.drawers?.includes(type)) return key;
  return null;
}

/** A page of the manifest with the remote that brings it. */
export type MfeRoutedPage = MfePage & { remote: string };

/**
 * Every page the manifest's remotes bring, in manifest order; a path two remotes claim goes to the
 * first (as drawers do).
 */
export function manifestPages(manifest: MfeManifest): MfeRoutedPage[] {
  const seen = new Set<string>();
  const pages: MfeRoutedPage[] = [];
  for (const [remote, entry] of Object.entries(manifest))
    for (const page of entry.pages ?? []) {
      if (seen.has(page.path)) continue;
      seen.add(page.path);
      pages.push({ ...page, remote });
    }
  return pages;
}

/** The navigation: the pages with a label, by their menu place (then manifest order). */
export function menuPages(manifest: MfeManifest): MfeRoutedPage[] {
  return manifestPages(manifest)
    .filter((page) => page.label)
    .map((page, index) => ({ page, index }))
    .sort((a, b) => (a.page.menu ?? Infinity) - (b.page.menu ?? Infinity) || a.index - b.index)
    .map(({ page }) => page);
}

/** URL of the `mfe.json` a remote's build writes beside its remoteEntry.js. */
export function mfeDescriptorUrl(entry: string, base: string): string {
  return new URL('mfe.json', new URL(entry, base)).href;
}
