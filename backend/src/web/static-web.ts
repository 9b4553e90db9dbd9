import fastifyStatic from '@fastify/static';
import accepts from 'accepts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  mergeMfeManifests,
  mfeDescriptorSchema,
  parseMfeManifest,
  type MfeDescriptor,
  type MfeManifest,
  type MfeManifestEntry,
} from '@studio/contracts';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { AppConfig } from '../config/config.schema';

export const REMOTES = ['courses', 'orders', 'students', 'integrations'] as const;

/** Where the built web folders are: WEB_ROOT, else the repository root. */
function webRoot(config: AppConfig): string {
  return config.WEB_ROOT ?? join(__dirname, '..', '..', '..');
}

/**
 * What a remote's build says about itself (mfe-<name>/dist/mfe.json), if that build is here: an
 * API image without the web folders has none, and the shell then reads it beside the entry.
 */
function readDescriptor(root: string, remote: string): MfeDescriptor | null {
  const file = join(root, `mfe-${remote}`, 'dist', 'mfe.json');
  if (!existsSync(file)) return null;
  const parsed = mfeDescriptorSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new Error(`${file} is not a remote descriptor: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

/** Each remote served by this process (or the web tier) at /mfe/<name>/, as its build describes it. */
export function defaultRemoteManifest(config: AppConfig): MfeManifest {
  const root = webRoot(config);
  return Object.fromEntries(
    REMOTES.map((remote): [string, MfeManifestEntry] => {
      const entry = `/mfe/${remote}/remoteEntry.js`;
      const descriptor = readDescriptor(root, remote);
      if (!descriptor) return [remote, { entry }];
      const { version, drawers, pages } = descriptor;
      return [remote, { entry, version, drawers, ...(pages ? { pages } : {}) }];
    }),
  );
}

/**
 * The runtime manifest the shell reads (the shell/remote contract, @studio/contracts mfe-manifest):
 * per remote its entry URL, version and drawer types. MFE_MANIFEST_JSON is laid over the defaults
 * remote by remote, so naming one remote keeps the others where they are.
 */
export function remoteManifest(config: AppConfig): MfeManifest {
  const defaults = defaultRemoteManifest(config);
  if (!config.MFE_MANIFEST_JSON) return defaults;
  return mergeMfeManifests(defaults, parseMfeManifest(JSON.parse(config.MFE_MANIFEST_JSON)));
}

const noCache = (reply: FastifyReply) => reply.header('Cache-Control', 'no-cache');

/**
 * The manifest is answered by every API process, so a web tier only has to proxy it. Built once at
 * start from the remotes' mfe.json files: a remote released on its own is named in MFE_MANIFEST_JSON.
 */
export function mountRemoteManifest(app: FastifyInstance, config: AppConfig): void {
  const manifest = remoteManifest(config);
  app.get('/mfe-manifest.json', (_req, reply) => {
    noCache(reply);
    return reply.send(manifest);
  });
}

/** The shell's file a GET names, if there is one (no dotfile, nothing outside the shell's folder). */
function shellFile(shell: string, url: string): string | null {
  const at = url.indexOf('?');
  let path: string;
  try {
    path = decodeURIComponent(at < 0 ? url : url.slice(0, at));
  } catch {
    return null;
  }
  if (path.includes('\0') || path.split('/').some((part) => part.startsWith('.'))) return null;
  const file = resolve(shell, `.${path}`);
  if (!file.startsWith(shell + sep)) return null;
  try {
    return statSync(file).isFile() ? file.slice(shell.length + 1) : null;
  } catch {
    return null;
  }
}

/**
 * Paths answered with the shell's index.html (its client-side routes): neither the API, a remote,
 * nor the online store (/s/..., its files under /s-assets/: storefront-web.ts).
 */
export const SHELL_ROUTES = /^\/(?!api\/|api$|mfe\/|s\/|s$|s-assets\/).*/;

/**
 * Serves the shell at / (index.html for every /admin route) and each remote's bundle at /mfe/<name>/,
 * so one process answers everything in the one-command setup. In a multi-machine deployment a CDN
 * or the `web` service serves the same folders and this is turned off with SERVE_WEB=false.
 * Files are served as express.static served them: dotfiles ignored, a folder without its slash
 * redirected, what is not there passed on to the not-found answer.
 */
export function mountStaticWeb(app: FastifyInstance, config: AppConfig): string[] {
  const root = webRoot(config);
  const missing: string[] = [];
  for (const remote of REMOTES) {
    const dir = join(root, `mfe-${remote}`, 'dist');
    if (!existsSync(dir)) missing.push(dir);
    void app.register(fastifyStatic, {
      root: dir,
      prefix: `/mfe/${remote}/`,
      decorateReply: false,
      redirect: true,
      dotfiles: 'ignore',
      suppressWarning: true,
      setHeaders: (reply, path) => {
        reply.header('Access-Control-Allow-Origin', '*');
        if (path.endsWith('remoteEntry.js')) noCache(reply);
      },
    });
  }
  const shell = resolve(root, 'shell', 'dist');
  if (!existsSync(shell)) missing.push(shell);
  // reply.sendFile, for the shell's files (found by shellFile) and its index.html.
  void app.register(fastifyStatic, { root: shell, serve: false, dotfiles: 'ignore', suppressWarning: true });
  const index = join(shell, 'index.html');
  const handler = (req: FastifyRequest, reply: FastifyReply) => {
    const file = shellFile(shell, req.url);
    if (file) {
      if (!file.endsWith('.html')) return reply.sendFile(file, shell, { index: false });
      noCache(reply);
      return reply.sendFile(file, shell, { index: false, cacheControl: false });
    }
    if (!SHELL_ROUTES.test(req.url) || !accepts(req.raw).type('html') || !existsSync(index))
      return reply.callNotFound();
    noCache(reply);
    return reply.sendFile('index.html', shell, { cacheControl: false });
  };
  app.get('/', handler);
  app.get('/*', handler);
  return missing;
}
