import { renderToString } from 'preact-render-to-string';
import { App } from './app';
import { renderDocument, type Assets } from './document';
import { pageByName } from './routes';

export { routes, statusPages } from './routes';
export { storeBase } from './links';
export type { Assets } from './document';
export type { PageProps, StoreApi } from './types';
export type { Route } from './routes';
export type { NotFoundData } from './pages/status';

/** The client build's manifest (dist/client/manifest.json), written by webpack.config.js. */
export interface ClientManifest {
  scripts: string[];
  styles: string[];
}

/** The client files a page loads, under the path they are served from (e.g. /s-assets/). */
export function pageAssets(manifest: ClientManifest, prefix: string): Assets {
  return {
    scripts: manifest.scripts.map((file) => `${prefix}${file}`),
    styles: manifest.styles.map((file) => `${prefix}${file}`),
  };
}

export interface RenderInput {
  /** A route's name, or a status page ('not-found', 'error'). */
  page: string;
  data: unknown;
  /** The store's address in this app (/s/{slug}). */
  base: string;
  /** The page's absolute address (og:url, canonical). */
  pageUrl: string;
  /** This app's origin, for absolute image and checkout links. */
  origin: string;
  assets: Assets;
}

/** The page as HTML, its content there before any script runs. */
export function render(input: RenderInput): string {
  const { page, data, base, pageUrl, origin, assets } = input;
  const { head } = pageByName(page);
  const hydration = { page, data, base };
  const body = renderToString(<App {...hydration} />);
  return renderDocument({ head: head(data, { pageUrl, origin, base }), body, hydration, assets });
}
