import express, { Express, NextFunction, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../config/config.schema';

export const REMOTES = ['courses', 'orders', 'students', 'integrations'] as const;

/** The runtime manifest the shell reads: remote name -> URL of its remoteEntry.js. */
export function remoteManifest(config: AppConfig): Record<string, string> {
  if (config.MFE_MANIFEST_JSON) return JSON.parse(config.MFE_MANIFEST_JSON) as Record<string, string>;
  return Object.fromEntries(REMOTES.map((r) => [r, `/mfe/${r}/remoteEntry.js`]));
}

const noCache = (res: Response) => res.setHeader('Cache-Control', 'no-cache');

/** The manifest is answered by every API process, so a web tier only has to proxy it. */
export function mountRemoteManifest(app: Express, config: AppConfig): void {
  app.get('/mfe-manifest.json', (_req, res) => {
    noCache(res);
    res.json(remoteManifest(config));
  });
}

/**
 * Serves the shell at / (index.html for every /admin route) and each remote's bundle at /mfe/<name>/,
 * so one process answers everything in the one-command setup. In a multi-machine deployment a CDN
 * or the `web` service serves the same folders and this is turned off with SERVE_WEB=false.
 */
export function mountStaticWeb(app: Express, config: AppConfig): string[] {
  const root = config.WEB_ROOT ?? join(__dirname, '..', '..', '..');
  const missing: string[] = [];
  for (const remote of REMOTES) {
    const dir = join(root, `mfe-${remote}`, 'dist');
    if (!existsSync(dir)) missing.push(dir);
    app.use(
      `/mfe/${remote}`,
      express.static(dir, {
        setHeaders: (res, path) => {
          res.setHeader('Access-Control-Allow-Origin', '*');
          if (path.endsWith('remoteEntry.js')) noCache(res);
        },
      }),
    );
  }
  const shell = join(root, 'shell', 'dist');
  if (!existsSync(shell)) missing.push(shell);
  app.use(express.static(shell, { index: false, setHeaders: (res, p) => p.endsWith('.html') && noCache(res) }));
  app.get(/^\/(?!api\/|api$|mfe\/).*/, (req: Request, res: Response, next: NextFunction) => {
    if (!req.accepts('html')) return next();
    const index = join(shell, 'index.html');
    if (!existsSync(index)) return next();
    noCache(res);
    res.sendFile(index);
  });
  return missing;
}
