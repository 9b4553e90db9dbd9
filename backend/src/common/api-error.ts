import { HttpException, HttpStatus } from '@nestjs/common';

/** The one error body every endpoint answers with. */
export interface ErrorBody {
  statusCode: number;
  message: string;
  errors?: Record<string, string>;
}

/**
 * A client mistake or a refused business rule, with the spec's message and optional field messages.
 * New service code raises DomainError (domain-error.ts) instead; both render this same body.
 */
export class ApiError extends HttpException {
  constructor(status: HttpStatus, message: string, errors?: Record<string, string>) {
    super({ statusCode: status, message, ...(errors ? { errors } : {}) } satisfies ErrorBody, status);
  }
}

export const notFound = (what = 'Not found') => new ApiError(HttpStatus.NOT_FOUND, what);
