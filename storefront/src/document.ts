import type { Head } from './head';
import { scriptJson } from './json-ld';
import type { HydrationData } from './types';

/** The client build's files a page loads, as the build's manifest names them. */
export interface Assets {
  scripts: string[];
  styles: string[];
}

/** The id of the <script type="application/json"> holding the hydration data. */
export const DATA_ELEMENT_ID = 'store-data';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for HTML, in an element or an attribute value. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const meta = (attribute: 'name' | 'property', key: string, content: string | undefined) =>
  content ? `<meta ${attribute}="${key}" content="${escapeHtml(content)}">` : '';

/**
 * The whole page: the head (title, description, Open Graph, JSON-LD, the stylesheet, the deferred
 * client script), the server-rendered body, and the data it was rendered from as JSON for
 * hydration. No inline script runs: the store's CSP allows scripts from its own files only.
 */
export function renderDocument(input: {
  head: Head;
  body: string;
  hydration: HydrationData;
  assets: Assets;
}): string {
  const { head, body, hydration, assets } = input;
  const og = head.og;
  const lines = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(head.title)}</title>`,
    meta('name', 'description', head.description),
    head.noindex ? '<meta name="robots" content="noindex">' : '',
    og ? `<link rel="canonical" href="${escapeHtml(og.url)}">` : '',
    meta('property', 'og:type', og?.type),
    meta('property', 'og:title', og?.title),
    meta('property', 'og:description', og?.description),
    meta('property', 'og:url', og?.url),
    meta('property', 'og:image', og?.image),
    meta('property', 'og:site_name', og?.siteName),
    og ? meta('name', 'twitter:card', og.image ? 'summary_large_image' : 'summary') : '',
    ...assets.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    head.jsonLd ? `<script type="application/ld+json">${scriptJson(head.jsonLd)}</script>` : '',
    ...assets.scripts.map((src) => `<script defer src="${escapeHtml(src)}"></script>`),
    '</head>',
    '<body>',
    `<div id="app">${body}</div>`,
    `<script type="application/json" id="${DATA_ELEMENT_ID}">${scriptJson(hydration)}</script>`,
    '</body>',
    '</html>',
  ];
  return lines.filter(Boolean).join('\n');
}
