import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { LoginInput, MESSAGES } from '@studio/contracts';
import { randomBytes } from 'node:crypto';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { ApiError } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import { AuthSession } from './auth-session.entity';
import { LoginRateLimiter, LoginSource } from './login-rate-limiter';
import { timingDummyHash, verifyPassword } from './password';
import { SessionCache } from './session-cache';
import { hashSessionToken, newSessionToken } from './session-token';
import { User } from './user.entity';
import { Clock } from '../../common/clock';

const DAY_MS = 24 * 3600 * 1000;
const DEVICE_COOKIE_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** Known devices kept per account, most recently used first. */
const MAX_KNOWN_DEVICES = 20;

/** The browser's device cookie value, when it has one of the right shape. */
export function validDeviceId(value: string | undefined): string | null {
  return value && DEVICE_COOKIE_SHAPE.test(value) ? value : null;
}

/** Sign-in, sign-out and turning a token back into a caller. */
@Injectable()
export class AuthService {
  /** Recently resolved tokens (5 s of the app's clock, bounded): see SessionCache. */
  private readonly sessions: SessionCache;

  constructor(
    private readonly em: EntityManager,
    private readonly limiter: LoginRateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.sessions = new SessionCache(undefined, undefined, () => clock.nowMs());
  }

  /** Whether this browser (its device cookie) signed in to the account before. */
  private async sourceOf(email: string, deviceId: string | null): Promise<LoginSource> {
    if (!deviceId) return { kind: 'unknown' };
    const deviceHash = hashSessionToken(deviceId);
    const rows: unknown[] = await this.em
      .getConnection()
      .execute(
        `select 1 from known_device d join app_user u on u.id = d.user_id where u.email = ? and d.device_hash = ? limit 1`,
        [email, deviceHash],
      );
    return rows.length ? { kind: 'known-device', deviceHash } : { kind: 'unknown' };
  }

  /**
   * Counts the attempt first (see LoginRateLimiter), then verifies the password. On success the
   * browser's device id (its cookie, or a new one) becomes one of the account's known devices.
   */
  async login(
    input: LoginInput,
    address: string,
    deviceId: string | null,
  ): Promise<{ token: string; user: User; deviceId: string }> {
    const email = input.email.toLowerCase();
    const source = await this.sourceOf(email, deviceId);
    if (!(await this.limiter.tryConsume(address, email, source))) {
      throw new ApiError(HttpStatus.TOO_MANY_REQUESTS, MESSAGES.auth.tooManyAttempts);
    }
    const user = await this.em.findOne(User, { email }, { populate: ['passwordHash'] });
    const valid = await verifyPassword(user?.passwordHash ?? (await timingDummyHash(this.config.PASSWORD_HASH_COST)), input.password);
    if (!user || !valid) {
      // One message whatever was wrong, so the answer does not reveal which emails exist.
      throw new ApiError(HttpStatus.UNAUTHORIZED, MESSAGES.auth.invalidCredentials);
    }
    await this.limiter.succeeded(address, email, source);
    const device = deviceId ?? randomBytes(32).toString('base64url');
    const connection = this.em.getConnection();
    await connection.execute(
      `insert into known_device (id, user_id, device_hash) values (gen_random_uuid(), ?, ?)
       on conflict (user_id, device_hash) do update set last_seen_at = now()`,
      [user.id, hashSessionToken(device)],
    );
    // Clients that keep no cookie (scripts) add a device per sign-in: keep the most recent ones.
    await connection.execute(
      `delete from known_device where user_id = ? and id not in
         (select id from known_device where user_id = ? order by last_seen_at desc limit ${MAX_KNOWN_DEVICES})`,
      [user.id, user.id],
    );
    const { token, hash } = newSessionToken();
    const session = this.em.create(AuthSession, {
      user,
      tokenHash: hash,
      createdAt: new Date(),
      expiresAt: this.clock.inMs(this.config.SESSION_TTL_DAYS * DAY_MS),
    });
    await this.em.persistAndFlush(session);
    return { token, user, deviceId: device };
  }

  /** Revokes the caller's session (this token only). */
  async logout(ctx: RequestContext): Promise<void> {
    await this.em.nativeUpdate(AuthSession, { id: ctx.sessionId, revokedAt: null }, { revokedAt: new Date() });
    this.sessions.forgetSession(ctx.sessionId);
  }

  /** Revokes every session of the caller, this one included ("sign out everywhere"). */
  async logoutEverywhere(ctx: RequestContext): Promise<number> {
    const revoked = await this.em.nativeUpdate(AuthSession, { user: ctx.userId, revokedAt: null }, { revokedAt: new Date() });
    this.sessions.forgetUser(ctx.userId);
    return revoked;
  }

  /** The organization a super admin administers in this session only (their other sessions keep theirs). */
  async actInOrganization(ctx: RequestContext, organizationId: string): Promise<void> {
    await this.em.nativeUpdate(
      AuthSession,
      { id: ctx.sessionId },
      { actingOrganization: this.em.getReference(Organization, organizationId) },
    );
    this.sessions.forgetSession(ctx.sessionId);
  }

  /**
   * The caller behind a token, or null when it is unknown, revoked or expired. A token resolved in
   * the last 5 seconds is answered from memory (SessionCache); unknown tokens are never cached.
   */
  async resolve(token: string): Promise<RequestContext | null> {
    if (!token || token.length > 200) return null;
    const tokenHash = hashSessionToken(token);
    const cached = this.sessions.get(tokenHash);
    if (cached) return cached;
    const [row] = await this.em.getConnection().execute<
      { session_id: string; user_id: string; role: RequestContext['role']; organization_id: string; acting_organization_id: string | null; expires_at: Date }[]
    >(
      `select s.id as session_id, u.id as user_id, u.role, u.organization_id, s.acting_organization_id, s.expires_at
         from auth_session s join app_user u on u.id = s.user_id
        where s.token_hash = ? and s.revoked_at is null and s.expires_at > ?`,
      [tokenHash, this.clock.now()],
    );
    if (!row) return null;
    const acting = row.role === 'super_admin' ? row.acting_organization_id : null;
    const ctx: RequestContext = {
      sessionId: row.session_id,
      userId: row.user_id,
      role: row.role,
      organizationId: acting ?? row.organization_id,
    };
    this.sessions.set(tokenHash, ctx, new Date(row.expires_at));
    return ctx;
  }
}
