import { TOKEN_HEADER } from '@studio/contracts/src/ui-constants';
import { readSessionToken } from './session-token';

/**
 * POSTs a JSON body with the session token header and saves the answer as a file. fetch + Blob
 * rather than a plain link because a link cannot carry the token header (spec 001 §7).
 */
export async function downloadFile(path: string, body: unknown, fileName: string): Promise<void> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = readSessionToken();
  if (token) headers[TOKEN_HEADER] = token;
  const response = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}`);
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoke later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
