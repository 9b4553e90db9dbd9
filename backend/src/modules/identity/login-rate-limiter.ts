import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimiter } from '../../common/rate-limiter';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { REDIS_CONNECTION } from '../../queue/job-queue';

/**
 * Where a sign-in attempt comes from, as far as the account's budget is concerned: one of the
 * account's known devices (a browser holding a device cookie the account signed in with before),
 * or anywhere else.
 */
export type LoginSource = { kind: 'known-device'; deviceHash: string } | { kind: 'unknown' };

/**
 * Sign-in attempt budgets (OWASP ASVS V6.3), counted in Redis when it answers so every API replica
 * shares them, in memory otherwise.
 *
 * - Every attempt is counted BEFORE the password is verified. Counting after the ~130 ms argon2
 *   check let a parallel burst through: all of its requests passed the check before any failure
 *   was recorded. `consume` is atomic in both stores, so at most the budget is ever verified.
 * - Per client address (`LOGIN_MAX_ATTEMPTS_PER_ADDRESS`): one address cannot guess at many
 *   accounts. A successful sign-in gives back only its own attempt; it never wipes the address's
 *   earlier failures (an attacker signing in to their own account used to reset it).
 * - Per account, from unknown devices (`LOGIN_MAX_ATTEMPTS_PER_EMAIL`): shared by every browser
 *   that has never signed in to the account, so guesses spread over many addresses still stop.
 * - Per account and known device (`LOGIN_MAX_ATTEMPTS_PER_DEVICE`): a device the account signed
 *   in with before has a budget of its own. Attackers exhausting the account's shared budget
 *   therefore do not lock the owner out of the browser they always use; only someone holding that
 *   device's cookie can spend that budget. A success from a known device resets that device's
 *   counter for that account, and nothing else.
 *
 * Every budget refills after `LOGIN_WINDOW_SECONDS`.
 */
@Injectable()
export class LoginRateLimiter {
  private readonly byAddress: RateLimiterAbstract;
  private readonly byAccount: RateLimiterAbstract;
  private readonly byKnownDevice: RateLimiterAbstract;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(REDIS_CONNECTION) redis: Redis | null) {
    const make = (name: string, points: number) =>
      rateLimiter(config, redis, name, points, config.LOGIN_WINDOW_SECONDS);
    this.byAddress = make('login_ip', config.LOGIN_MAX_ATTEMPTS_PER_ADDRESS);
    this.byAccount = make('login_email', config.LOGIN_MAX_ATTEMPTS_PER_EMAIL);
    this.byKnownDevice = make('login_device', config.LOGIN_MAX_ATTEMPTS_PER_DEVICE);
  }

  private account(email: string, source: LoginSource): { limiter: RateLimiterAbstract; key: string } {
    return source.kind === 'known-device'
      ? { limiter: this.byKnownDevice, key: `${email}:${source.deviceHash}` }
      : { limiter: this.byAccount, key: email };
  }

  /**
   * Counts one attempt against the address and the account (for its source). False when a budget
   * is spent: the attempt must then be refused without verifying the password.
   */
  async tryConsume(address: string, email: string, source: LoginSource): Promise<boolean> {
    const account = this.account(email, source);
    const results = await Promise.all([
      this.byAddress.consume(address).then(
        () => true,
        (r: unknown) => this.spent(r),
      ),
      account.limiter.consume(account.key).then(
        () => true,
        (r: unknown) => this.spent(r),
      ),
    ]);
    return results.every(Boolean);
  }

  /**
   * After a successful sign-in: the attempt is given back to the address (its earlier failures
   * stay), and the account's counter for this known device is reset. A success from an unknown
   * device only gives back its own attempt: the unknown-device budget is shared with whoever else
   * is guessing, so one success must not refill it for them.
   */
  async succeeded(address: string, email: string, source: LoginSource): Promise<void> {
    const account = this.account(email, source);
    await Promise.all([
      this.byAddress.reward(address, 1),
      source.kind === 'known-device' ? account.limiter.delete(account.key) : account.limiter.reward(account.key, 1),
    ]);
  }

  private spent(reason: unknown): false {
    if (!(reason instanceof RateLimiterRes)) throw reason;
    return false;
  }
}
