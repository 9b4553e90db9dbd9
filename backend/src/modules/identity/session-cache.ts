import { RequestContext } from '../../common/request-context';

/** How long a resolved token is trusted without reading `auth_session` again. */
export const SESSION_CACHE_TTL_MS = 5_000;
/** Tokens kept at most; the least recently used goes first. */
export const SESSION_CACHE_MAX = 10_000;

interface Entry {
  ctx: RequestContext;
  until: number;
}

/**
 * The callers behind recently seen tokens (keyed by the token's hash), so a page of requests does not
 * read `auth_session` on each one. Bounded (LRU) and short-lived (5 s): a sign-out, "sign out
 * everywhere" or a switch of organization in this process drops the entries at once; a session
 * revoked by another API process stops working within the TTL at the latest.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = SESSION_CACHE_TTL_MS,
    private readonly max = SESSION_CACHE_MAX,
    private readonly now: () => number = Date.now,
  ) {}

  get(tokenHash: string): RequestContext | null {
    const entry = this.entries.get(tokenHash);
    if (!entry) return null;
    this.entries.delete(tokenHash);
    if (entry.until <= this.now()) return null;
    this.entries.set(tokenHash, entry); // most recently used last
    return entry.ctx;
  }

  /** Keeps the caller for the TTL, never past the session's own expiry. */
  set(tokenHash: string, ctx: RequestContext, expiresAt: Date): void {
    const until = Math.min(this.now() + this.ttlMs, expiresAt.getTime());
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, { ctx, until });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Drops the entries of one session. */
  forgetSession(sessionId: string): void {
    for (const [key, entry] of this.entries) if (entry.ctx.sessionId === sessionId) this.entries.delete(key);
  }

  /** Drops the entries of every session of a user. */
  forgetUser(userId: string): void {
    for (const [key, entry] of this.entries) if (entry.ctx.userId === userId) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
