import type { Refusal, RefusalKind } from '@studio/contracts';
import { ApiError, type ErrorBody } from './api-error';

/*
 * The one error type services raise for a refused business rule (issue 33): it carries the
 * refusal `{ code, message, field? }` (from a pure rule of libs/contracts, or the service's own)
 * and its kind; it knows nothing of HTTP beyond the status its kind maps to. The global ErrorFilter
 * (error.filter.ts) renders it as the same body ApiError answers: `{ statusCode, message,
 * errors?: { field: message } }`. Services raise DomainError; ApiError stays for the modules not
 * converted yet (and for controllers' own HTTP answers): both render the same body.
 */

/** The HTTP status of each kind of refusal. */
export const DOMAIN_ERROR_STATUS: Record<RefusalKind, number> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  upstream: 502,
};

/** A refused business rule, raised by a service. */
export class DomainError<C extends string = string> extends Error {
  /**
   * @param alsoFields more fields the message is shown on, after the refusal's own (Remove student's
   * `refund`: the dialog tells a refused refund from a failed removal).
   */
  constructor(
    readonly kind: RefusalKind,
    readonly refusal: Refusal<C>,
    readonly alsoFields: readonly string[] = [],
  ) {
    super(refusal.message);
    this.name = 'DomainError';
  }

  get status(): number {
    return DOMAIN_ERROR_STATUS[this.kind];
  }

  get code(): C {
    return this.refusal.code;
  }

  /** The same refusal, shown on `field` too. */
  alsoOn(field: string): DomainError<C> {
    return new DomainError(this.kind, this.refusal, [...this.alsoFields, field]);
  }

  /** The error body, as ApiError's. */
  toBody(): ErrorBody {
    const fields = [...(this.refusal.field ? [this.refusal.field] : []), ...this.alsoFields];
    const errors = Object.fromEntries(fields.map((field) => [field, this.refusal.message]));
    return { statusCode: this.status, message: this.refusal.message, ...(fields.length ? { errors } : {}) };
  }
}

/**
 * The HTTP status of a refusal a service raised (a DomainError, or an ApiError of a module not
 * converted yet), or null for anything else (a bug, a lost connection): one test for a caller that
 * turns some refusals into an outcome of its own (a return refused because the holding expired).
 */
export function refusalStatus(error: unknown): number | null {
  if (error instanceof DomainError) return error.status;
  if (error instanceof ApiError) return error.getStatus();
  return null;
}

/** A refusal a service raised (DomainError, or ApiError of a module not converted yet): its message is the user's to read. */
export function isRefusal(error: unknown): error is DomainError | ApiError {
  return refusalStatus(error) !== null;
}
