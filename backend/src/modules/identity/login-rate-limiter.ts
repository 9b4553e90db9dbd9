import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { REDIS_CONNECTION } from '../../queue/job-queue';

/**
 * Counts failed sign-ins per client address and per email. In Redis when it answers, so every API
 * replica shares the counts; in memory otherwise.
 */
@Injectable()
export class LoginRateLimiter {
  private readonly byEmail: RateLimiterAbstract;
  private readonly byAddress: RateLimiterAbstract;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(REDIS_CONNECTION) redis: Redis | null) {
    const make = (name: string, points: number) => {
      const keyPrefix = `${config.REDIS_PREFIX}:${name}`;
      return (
      redis
        ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: config.LOGIN_WINDOW_SECONDS })
        : new RateLimiterMemory({ keyPrefix, points, duration: config.LOGIN_WINDOW_SECONDS }));
    };
    this.byEmail = make('login_fail_email', config.LOGIN_MAX_ATTEMPTS_PER_EMAIL);
    this.byAddress = make('login_fail_ip', config.LOGIN_MAX_ATTEMPTS_PER_ADDRESS);
  }

  /** True when either counter has no attempts left. */
  async isBlocked(address: string, email: string): Promise<boolean> {
    const [a, e] = await Promise.all([this.byAddress.get(address), this.byEmail.get(email)]);
    return (a !== null && a.remainingPoints <= 0) || (e !== null && e.remainingPoints <= 0);
  }

  async recordFailure(address: string, email: string): Promise<void> {
    await Promise.all([
      this.byAddress.consume(address).catch((r: unknown) => this.swallowLimit(r)),
      this.byEmail.consume(email).catch((r: unknown) => this.swallowLimit(r)),
    ]);
  }

  async reset(address: string, email: string): Promise<void> {
    await Promise.all([this.byAddress.delete(address), this.byEmail.delete(email)]);
  }

  private swallowLimit(reason: unknown): void {
    if (!(reason instanceof RateLimiterRes)) throw reason;
  }
}
