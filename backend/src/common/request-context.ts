import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { UserRole } from '../modules/identity/user.entity';

/** Who is calling and for which organization: the first argument of every service method. */
export interface RequestContext {
  userId: string;
  sessionId: string;
  role: UserRole;
  organizationId: string;
}

export type AuthenticatedRequest = FastifyRequest & { ctx?: RequestContext };

/** Injects the caller's context, set by the auth guard. */
export const Ctx = createParamDecorator((_: unknown, execution: ExecutionContext): RequestContext => {
  const request = execution.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.ctx) throw new Error('Ctx used on a route without the auth guard');
  return request.ctx;
});
