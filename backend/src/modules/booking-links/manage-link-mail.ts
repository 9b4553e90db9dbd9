/** The manage link's line in a mail's text (issue 23). */
export const manageLinkLine = (url: string) => `Manage your booking: ${url}`;

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * The HTML part of a booking mail: its text, line by line, escaped, with the manage link as a link
 * ("Manage your booking"), so the mail reads the same in a client that shows HTML.
 */
export function bookingMailHtml(text: string, manageUrl: string): string {
  const line = manageLinkLine(manageUrl);
  const body = text
    .split('\n')
    .map((l) =>
      l === line
        ? `<p><a href="${escapeHtml(manageUrl)}">Manage your booking</a></p>`
        : l.trim() === ''
          ? ''
          : `<p style="margin:0 0 4px">${escapeHtml(l)}</p>`,
    )
    .join('\n');
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.4">\n${body}\n</body></html>`;
}
