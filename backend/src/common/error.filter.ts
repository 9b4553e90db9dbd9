import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { NotFoundError, UniqueConstraintViolationException } from '@mikro-orm/core';
import { DISCOUNT_MESSAGES, MESSAGES, SCHEDULING_MESSAGES, STORE_MESSAGES } from '@studio/contracts';
import type { FastifyReply } from 'fastify';
import type { ServerResponse } from 'node:http';
import { ZodSerializationException, ZodValidationException } from 'nestjs-zod';
import { ZodError } from 'zod';
import { ErrorBody } from './api-error';
import { DomainError } from './domain-error';

/**
 * Zod issues to { field: message }, first message per field; unknown keys are named one by one. A
 * Map, then own properties: a field named "__proto__" is reported like any other, not assigned to
 * the prototype.
 */
export function zodIssuesToFields(error: ZodError): Record<string, string> {
  const fields = new Map<string, string>();
  const add = (key: string, message: string) => {
    if (!fields.has(key)) fields.set(key, message);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key].join('.'), `Unknown field: ${key}`);
      continue;
    }
    add(issue.path.length ? issue.path.map(String).join('.') : '_', issue.message);
  }
  return Object.fromEntries(fields);
}

/**
 * What each unique constraint means to the person who hit it. A race that slips past a service's
 * own check (two requests creating the same student at once) answers the same 409 as the check.
 */
export const UNIQUE_CONSTRAINT_MESSAGES: Record<string, { message: string; field?: string }> = {
  student_organization_email_unique: { message: MESSAGES.students.emailTaken, field: 'email' },
  tag_organization_name_unique: { message: SCHEDULING_MESSAGES.tagNameTaken, field: 'name' },
  enrollment_active_student_unique: { message: SCHEDULING_MESSAGES.alreadyEnrolled },
  discount_code_organization_code_unique: { message: DISCOUNT_MESSAGES.codeTaken, field: 'code' },
  app_user_email_unique: { message: 'An account with this email already exists.', field: 'email' },
  organization_slug_unique: { message: STORE_MESSAGES.slugTaken, field: 'slug' },
};
const GENERIC_CONFLICT = 'This record already exists';

const STATUS_MESSAGES: Partial<Record<number, string>> = {
  400: 'Bad request',
  401: MESSAGES.auth.unauthorized,
  403: MESSAGES.auth.forbidden,
  404: MESSAGES.common.notFound,
  413: 'The request body is too large',
  415: 'Unsupported media type',
  429: MESSAGES.auth.tooManyAttempts,
};

/**
 * Maps every thrown thing to `{ statusCode, message, errors? }`: the one exception filter, registered
 * globally (APP_FILTER). A service's DomainError and an ApiError answer the same body. Client mistakes (bad JSON, unknown
 * fields, failed validation) are 4xx; only our own faults are 500, and those are logged.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<FastifyReply | ServerResponse>();
    const body = this.toBody(exception);
    if (exception instanceof ZodSerializationException) {
      // Our answer did not match its documented schema: a bug on our side, logged with the details.
      this.logger.error(`Response failed its schema: ${JSON.stringify((exception.getZodError() as ZodError).issues)}`);
    } else if (body.statusCode >= 500) this.logger.error(exception);
    else if (exception instanceof UniqueConstraintViolationException && body.message === GENERIC_CONFLICT) {
      this.logger.warn(`Unique constraint without a message of its own: ${(exception as { constraint?: string }).constraint}`);
    }
    if ('raw' in response) {
      if (!response.sent && !response.raw.headersSent) void response.status(body.statusCode).send(body);
    } else if (!response.headersSent) {
      // Thrown in a middleware, which has the Node response, not Fastify's reply.
      response.statusCode = body.statusCode;
      response.setHeader('Content-Type', 'application/json; charset=utf-8');
      response.end(JSON.stringify(body));
    }
  }

  toBody(exception: unknown): ErrorBody {
    if (exception instanceof DomainError) return exception.toBody();
    if (exception instanceof ZodValidationException) {
      const zodError = exception.getZodError();
      const errors = zodError instanceof ZodError ? zodIssuesToFields(zodError) : undefined;
      return { statusCode: 400, message: MESSAGES.common.validationFailed, ...(errors ? { errors } : {}) };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const res = exception.getResponse();
      if (typeof res === 'object' && res !== null && 'message' in res && typeof res.message === 'string') {
        const errors = 'errors' in res && res.errors && typeof res.errors === 'object' ? res.errors : undefined;
        return { statusCode: status, message: res.message, ...(errors ? { errors: errors as Record<string, string> } : {}) };
      }
      return { statusCode: status, message: STATUS_MESSAGES[status] ?? exception.message };
    }
    if (exception instanceof NotFoundError) return { statusCode: 404, message: MESSAGES.common.notFound };
    if (exception instanceof UniqueConstraintViolationException) {
      const constraint = (exception as { constraint?: string }).constraint;
      const known = constraint ? UNIQUE_CONSTRAINT_MESSAGES[constraint] : undefined;
      if (!known) return { statusCode: 409, message: GENERIC_CONFLICT };
      return { statusCode: 409, message: known.message, ...(known.field ? { errors: { [known.field]: known.message } } : {}) };
    }
    // body-parser errors (malformed JSON, too large, bad charset) carry their own 4xx status.
    const status = (exception as { status?: unknown })?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const type = (exception as { type?: string }).type;
      const message = type === 'entity.parse.failed' ? MESSAGES.common.malformedJson : (STATUS_MESSAGES[status] ?? 'Bad request');
      return { statusCode: status, message };
    }
    return { statusCode: HttpStatus.INTERNAL_SERVER_ERROR, message: MESSAGES.common.internal };
  }
}
