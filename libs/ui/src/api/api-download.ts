import { answer, api } from './typed-client';

/** Saves a Blob as a file through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
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

/**
 * POST /api/admin/export/enrollment through the typed client (the token header rides along, which a
 * plain link cannot carry, spec 001 §7) and saves the CSV it answers.
 */
export async function downloadEnrollments(
  body: { event_id: string; enrollment_ids: string[] },
  fileName: string,
): Promise<void> {
  const blob = await answer(api.POST('/api/admin/export/enrollment', { body, parseAs: 'blob' }));
  saveBlob(blob as Blob, fileName);
}
