import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from './api-error';

/** The methods whose actions may or may not take a body; GET and HEAD never read one. */
const ACTION_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Where @nestjs/swagger's @ApiBody() keeps its entry (DECORATORS.API_PARAMETERS, not exported from the package root). */
const API_PARAMETERS = 'swagger/apiParameters';

export const BODY_NOT_TAKEN = 'This action takes no request body';

/**
 * Whether an action declares a body: a @Body() parameter, or an @ApiBody() for the handlers that
 * read theirs themselves (uploads, signed webhooks, form posts). Either one puts a requestBody in
 * the OpenAPI document; an action with neither has none there.
 */
export function takesBody(controller: object, handler: (...args: unknown[]) => unknown): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {}) as Record<
    string,
    unknown
  >;
  if (Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY))) return true;
  const documented = (Reflect.getMetadata(API_PARAMETERS, handler) ?? []) as { in?: string }[];
  return documented.some((p) => p.in === 'body');
}

/** Whether the request carries body bytes: a Content-Length over 0, or a chunked body. */
export const sentBody = (headers: IncomingHttpHeaders): boolean =>
  headers['transfer-encoding'] !== undefined ||
  (headers['content-length'] !== undefined && headers['content-length'] !== '0');

/**
 * One rule for every POST, PUT, PATCH and DELETE whose OpenAPI entry has no request body: a request
 * that sends one anyway (even {}) is refused with 400 in the one error shape, before any handler
 * runs, instead of the body being silently ignored. Documented on each such operation by
 * documentRequestErrors (openapi-request-errors.ts).
 */
@Injectable()
export class BodilessActionGuard implements CanActivate {
  private readonly bodiless = new WeakMap<object, boolean>();

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<{ method: string; headers: IncomingHttpHeaders }>();
    if (!ACTION_METHODS.has(request.method) || !sentBody(request.headers)) return true;
    const handler = context.getHandler() as (...args: unknown[]) => unknown;
    let bodiless = this.bodiless.get(handler);
    if (bodiless === undefined) {
      bodiless = !takesBody(context.getClass(), handler);
      this.bodiless.set(handler, bodiless);
    }
    if (bodiless) throw new ApiError(HttpStatus.BAD_REQUEST, BODY_NOT_TAKEN);
    return true;
  }
}
