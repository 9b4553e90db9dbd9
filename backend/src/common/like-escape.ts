/** Escapes LIKE wildcards so a search for "50%" means the text. */
export const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
