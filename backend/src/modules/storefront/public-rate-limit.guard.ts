import { CanActivate, ExecutionContext, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { STORE_MESSAGES } from '@studio/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../../common/api-error';
import { rateLimiter } from '../../common/rate-limiter';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { REDIS_CONNECTION } from '../../queue/job-queue';

/**
 * The Storefront API is called by anyone on the internet: each client address (as the trusted
 * proxies name it) has PUBLIC_REQUESTS_PER_MINUTE calls a minute across every API replica; past it,
 * 429 with Retry-After.
 */
@Injectable()
export class PublicRateLimitGuard implements CanActivate {
  private readonly limiter: RateLimiterAbstract;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(REDIS_CONNECTION) redis: Redis | null) {
    this.limiter = rateLimiter(config, redis, 'public_ip', config.PUBLIC_REQUESTS_PER_MINUTE, 60);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    try {
      await this.limiter.consume(request.ip);
      return true;
    } catch (reason) {
      if (!(reason instanceof RateLimiterRes)) throw reason;
      const reply = context.switchToHttp().getResponse<FastifyReply>();
      void reply.header('Retry-After', String(Math.max(1, Math.ceil(reason.msBeforeNext / 1000))));
      throw new ApiError(HttpStatus.TOO_MANY_REQUESTS, STORE_MESSAGES.tooManyRequests);
    }
  }
}
