import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  HttpStatus,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiForbiddenResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { MESSAGES, TOKEN_HEADER } from '@studio/contracts';
import { ApiError } from '../../common/api-error';
import { AuthenticatedRequest } from '../../common/request-context';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { AuthService } from './auth.service';
import { UserRole } from './user.entity';

const ROLES_KEY = 'roles';

/** Resolves the `token` header into the caller's context; checks the role when one is required. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly auth: AuthService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(execution: ExecutionContext): Promise<boolean> {
    const request = execution.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers[TOKEN_HEADER];
    const ctx = typeof header === 'string' ? await this.auth.resolve(header) : null;
    if (!ctx) throw new ApiError(HttpStatus.UNAUTHORIZED, MESSAGES.auth.unauthorized);
    const roles = this.reflector.getAllAndOverride<UserRole[] | undefined>(ROLES_KEY, [
      execution.getHandler(),
      execution.getClass(),
    ]);
    if (roles && !roles.includes(ctx.role)) throw new ApiError(HttpStatus.FORBIDDEN, MESSAGES.auth.forbidden);
    request.ctx = ctx;
    return true;
  }
}

/** Requires a signed-in caller (optionally with one of the roles) and documents the `token` header. */
export function Auth(...roles: UserRole[]) {
  return applyDecorators(
    SetMetadata(ROLES_KEY, roles.length ? roles : undefined),
    UseGuards(AuthGuard),
    ApiSecurity('token'),
    ApiUnauthorizedResponse({ type: ErrorBodyDto, description: 'Missing, expired or revoked token' }),
    ...(roles.length ? [ApiForbiddenResponse({ type: ErrorBodyDto, description: 'Role not allowed' })] : []),
  );
}
