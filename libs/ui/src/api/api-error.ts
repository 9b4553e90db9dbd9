/** The one error body shape of the API (ARCHITECTURE.md). */
export interface ApiErrorBody {
  statusCode: number;
  message: string;
  errors?: Record<string, string>;
}

/**
 * Thrown for every non-OK answer. The message stays the spec's generic 'API call failed'; the
 * server's body rides along so a form can still show the field messages.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The server's message when it sent one, else the fallback. */
export function serverMessage(error: unknown, fallback: string): string {
  return isApiError(error) && error.body?.message ? error.body.message : fallback;
}
