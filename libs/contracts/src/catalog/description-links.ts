/*
 * A checkout form field's description supports the link syntax [text](url) (spec 000 §3). Zod-free:
 * the store's pages render descriptions on the course and checkout pages without loading zod.
 */

/** A safe href for `[text](url)` in a field description: http, https and mailto only. */
export function safeLinkHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return ['http:', 'https:', 'mailto:'].includes(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
}

export type DescriptionPart = { text: string; href?: string };

/** Splits a description into text and links; a link with an unsafe URL stays plain text. */
export function parseDescriptionLinks(description: string): DescriptionPart[] {
  const parts: DescriptionPart[] = [];
  const pattern = /\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const match of description.matchAll(pattern)) {
    const index = match.index ?? 0;
    if (index > last) parts.push({ text: description.slice(last, index) });
    const href = safeLinkHref(match[2]);
    parts.push(href ? { text: match[1], href } : { text: match[0] });
    last = index + match[0].length;
  }
  if (last < description.length) parts.push({ text: description.slice(last) });
  return parts;
}
