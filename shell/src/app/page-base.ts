/**
 * The app's font (antd's own stack) and page background, applied to <body> before the first
 * render, so the sign-in page and the loading screen use the same font as the admin area and have
 * no white frame (the browser's default 8 px body margin). Set through the CSSOM, which a strict
 * Content-Security-Policy allows, rather than an inline style attribute.
 */
export const APP_FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji', 'Segoe UI Symbol', 'Noto Color Emoji'";
export const APP_BACKGROUND = '#f5f6fa';
/** antd's colorPrimary in the admin area; the sign-in page (plain markup) uses it too. */
export const APP_PRIMARY_COLOR = '#3b5bdb';

export function applyPageBase(doc: Document = document): void {
  const { style } = doc.body;
  style.margin = '0';
  style.fontFamily = APP_FONT_FAMILY;
  style.background = APP_BACKGROUND;
  style.setProperty('-webkit-font-smoothing', 'antialiased');
}
