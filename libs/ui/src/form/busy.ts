/** How long work must last before a button shows its spinner. */
export const BUSY_DELAY_MS = 150;

/**
 * A button's `loading` for work that often ends within a few milliseconds (a submit that fails
 * client validation, a fast save). antd starts the spinner only once the work has lasted
 * BUSY_DELAY_MS, so a quick submit neither flickers the spinner nor starts its enter motion only to
 * cut it short; a cut-short motion can leave the hidden "loading" icon inside the button, which
 * then reads "loading Save" to a screen reader.
 */
export function busy(working: boolean): false | { delay: number } {
  return working ? { delay: BUSY_DELAY_MS } : false;
}
