import type { Redis } from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { AppConfig } from '../config/config.schema';

/**
 * A budget of `points` per key and `duration` seconds, counted in Redis when it answers so every API
 * replica shares it, in memory otherwise (and should Redis stop answering later, each process keeps
 * counting in memory rather than failing the request).
 */
export function rateLimiter(
  config: AppConfig,
  redis: Redis | null,
  name: string,
  points: number,
  duration: number,
): RateLimiterAbstract {
  const keyPrefix = `${config.REDIS_PREFIX}:${name}`;
  const memory = new RateLimiterMemory({ keyPrefix, points, duration });
  if (!redis) return memory;
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}
