import { MESSAGES } from '@studio/contracts/src/messages';
import { TOKEN_HEADER } from '@studio/contracts/src/ui-constants';
import type { components } from '@studio/contracts/src/generated/api';
import { ApiError } from './api-error';
import { readSessionToken } from './session-token';

export type UploadedImage = components['schemas']['UploadOutDto_Output'];

/**
 * POST /api/admin/upload as multipart (field `file`) with the `token` header (spec 000 §6).
 * apiFetch only speaks JSON, so the multipart call lives here, with the same error type.
 */
export async function uploadImage(file: File): Promise<UploadedImage> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = readSessionToken();
  if (token) headers[TOKEN_HEADER] = token;
  const body = new FormData();
  body.append('file', file);
  const response = await fetch('/api/admin/upload', { method: 'POST', headers, body });
  const text = await response.text();
  let payload: unknown = null;
  try {
    payload = text ? JSON.parse(text) : null;
  } catch {
    payload = null;
  }
  if (!response.ok) {
    console.error(`POST /api/admin/upload answered ${response.status}`, payload);
    const message = (payload as { message?: unknown } | null)?.message;
    throw new ApiError(
      MESSAGES.api.callFailed,
      response.status,
      typeof message === 'string' ? { statusCode: response.status, message } : null,
    );
  }
  return payload as UploadedImage;
}
