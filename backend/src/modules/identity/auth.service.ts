import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { LoginInput, MESSAGES } from '@studio/contracts';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { ApiError } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { AuthSession } from './auth-session.entity';
import { LoginRateLimiter } from './login-rate-limiter';
import { timingDummyHash, verifyPassword } from './password';
import { hashSessionToken, newSessionToken } from './session-token';
import { User } from './user.entity';

const DAY_MS = 24 * 3600 * 1000;

/** Sign-in, sign-out and turning a token back into a caller. */
@Injectable()
export class AuthService {
  constructor(
    private readonly em: EntityManager,
    private readonly limiter: LoginRateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async login(input: LoginInput, address: string): Promise<{ token: string; user: User }> {
    const email = input.email.toLowerCase();
    if (await this.limiter.isBlocked(address, email)) {
      throw new ApiError(HttpStatus.TOO_MANY_REQUESTS, MESSAGES.auth.tooManyAttempts);
    }
    const user = await this.em.findOne(User, { email }, { populate: ['passwordHash'] });
    const valid = await verifyPassword(user?.passwordHash ?? (await timingDummyHash()), input.password);
    if (!user || !valid) {
      await this.limiter.recordFailure(address, email);
      // One message whatever was wrong, so the answer does not reveal which emails exist.
      throw new ApiError(HttpStatus.UNAUTHORIZED, MESSAGES.auth.invalidCredentials);
    }
    await this.limiter.reset(address, email);
    const { token, hash } = newSessionToken();
    const session = this.em.create(AuthSession, {
      user,
      tokenHash: hash,
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + this.config.SESSION_TTL_DAYS * DAY_MS),
    });
    await this.em.persistAndFlush(session);
    return { token, user };
  }

  async logout(ctx: RequestContext): Promise<void> {
    await this.em.nativeUpdate(AuthSession, { id: ctx.sessionId }, { revokedAt: new Date() });
  }

  /** The caller behind a token, or null when it is unknown, revoked or expired. */
  async resolve(token: string): Promise<RequestContext | null> {
    if (!token || token.length > 200) return null;
    const session = await this.em.findOne(
      AuthSession,
      { tokenHash: hashSessionToken(token), revokedAt: null, expiresAt: { $gt: new Date() } },
      { populate: ['user'] },
    );
    if (!session) return null;
    return {
      sessionId: session.id,
      userId: session.user.id,
      role: session.user.role,
      organizationId: session.user.organization.id,
    };
  }
}
