import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  HttpException,
  HttpStatus,
  Injectable,
  NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { ApiConflictResponse, ApiHeader, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { idempotencyKeySchema } from '@studio/contracts';
import { ZodValidationException } from 'nestjs-zod';
import { from, lastValueFrom, Observable } from 'rxjs';
import { ApiError } from '../api-error';
import { ErrorBodyDto } from '../error-body.dto';
import { ErrorFilter } from '../error.filter';
import { AuthenticatedRequest } from '../request-context';
import { IdempotencyStore, requestHash } from './idempotency.store';

export const IDEMPOTENCY_MESSAGES = {
  mismatch: 'Keys for idempotent requests can only be used with the same parameters',
  running: 'A request with this Idempotency-Key is still being processed. Retry it once it has answered.',
} as const;

const toBody = (error: unknown) => new ErrorFilter().toBody(error);

/**
 * Idempotency-Key on an admin route (issue 19, as Stripe's): the first request with a key runs and
 * its answer is kept 24 hours, per organization, with the route and a hash of its parameters (path
 * parameters and body). The same key and parameters answer the first answer again (same status and
 * body) without running anything; other parameters answer 422; a first request still running
 * answers 409. A 5xx, or a body refused by its validation, is not kept: a retry runs again. Without the header the route runs as usual.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly store: IdempotencyStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return from(this.handle(context, next));
  }

  private async handle(context: ExecutionContext, next: CallHandler): Promise<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers['idempotency-key'];
    if (header === undefined) return lastValueFrom(next.handle(), { defaultValue: undefined });
    const parsed = idempotencyKeySchema.safeParse(Array.isArray(header) ? header.join(',') : header);
    if (!parsed.success) throw new ZodValidationException(parsed.error);
    // An admin route's organization is the caller's; a store's route names its store (StoreGuard).
    const organizationId = request.ctx?.organizationId ?? (request as { storeOrganizationId?: string }).storeOrganizationId;
    if (!organizationId) throw new Error('Idempotent() used on a route without the auth guard or the store guard');
    const key = parsed.data;
    const methodRoute = `${request.method} ${request.routeOptions?.url ?? request.url}`;
    const hash = requestHash(request.params ?? {}, request.body ?? null);
    const begun = await this.store.begin(organizationId, key, methodRoute, hash);
    if (begun.kind === 'mismatch')
      throw new ApiError(HttpStatus.UNPROCESSABLE_ENTITY, IDEMPOTENCY_MESSAGES.mismatch);
    if (begun.kind === 'running') throw new ApiError(HttpStatus.CONFLICT, IDEMPOTENCY_MESSAGES.running);
    if (begun.kind === 'replay') {
      const { status, body } = begun.answer;
      if (status >= 400) throw new HttpException(body as object, status);
      return body;
    }
    let result: unknown;
    try {
      result = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (error) {
      const body = toBody(error);
      // As Stripe: parameters refused before the action began (the body's validation) and server
      // errors keep no answer, so the corrected or retried request runs; a refusal of the action
      // itself (a rule, the provider) is its answer.
      if (body.statusCode >= 500 || error instanceof ZodValidationException) await this.store.release(organizationId, key);
      else await this.store.complete(organizationId, key, { status: body.statusCode, body });
      throw error;
    }
    const status =
      (Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined) ??
      (request.method === 'POST' ? 201 : 200);
    await this.store.complete(organizationId, key, { status, body: result ?? null });
    return result;
  }
}

/**
 * The route takes an Idempotency-Key header (IdempotencyInterceptor), documented with its 422 and
 * 409. Put it after Auth(): the key is the caller's organization's.
 */
export const Idempotent = (
  description = 'One per action (1 to 200 characters): a retry with the same key and parameters answers the first answer again, without doing anything again. Kept 24 hours.',
) =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({ name: 'Idempotency-Key', required: false, description }),
    ApiUnprocessableEntityResponse({
      type: ErrorBodyDto,
      description: `The Idempotency-Key was used with other parameters: "${IDEMPOTENCY_MESSAGES.mismatch}"`,
    }),
    ApiConflictResponse({
      type: ErrorBodyDto,
      description: 'The first request with this Idempotency-Key is still being processed',
    }),
  );
