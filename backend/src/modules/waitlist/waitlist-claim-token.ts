import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppSecret } from '../../common/app-secret';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';

const SECRET_NAME = 'waitlist_claim';

/**
 * The claim link's token of a waitlist offer (issues 23 and 31): `<entry id>.<HMAC-SHA256 of the
 * entry id and its offer's instant under the server's key (AppSecret), base64url>`. Derived, never
 * stored: the offer keeps only its SHA-256 (`claim_token_hash`), its announcement carries no token,
 * and the offer mail's handler derives it again to put it in the link. Nobody without the key can
 * make one, and a later offer of the same entry (another instant) gets another token.
 */
@Injectable()
export class WaitlistClaimTokens {
  private readonly secret: AppSecret;

  constructor(em: EntityManager, @Inject(APP_CONFIG) config: AppConfig) {
    this.secret = new AppSecret(em, config, SECRET_NAME);
  }

  /** The token of the entry's offer made at `offeredAt`. */
  async tokenFor(entryId: string, offeredAt: Date): Promise<string> {
    const id = entryId.toLowerCase();
    const mac = createHmac('sha256', await this.secret.get())
      .update(`waitlist-claim:${id}:${offeredAt.getTime()}`)
      .digest('base64url');
    return `${id}.${mac}`;
  }

  /** What the entry stores of its token. */
  static hash(token: string): string {
    return createHash('sha256').update(token).digest('hex');
  }

  /** Whether `token` is the one whose hash is stored, compared in constant time. */
  static matches(storedHash: string | null | undefined, token: string): boolean {
    if (!storedHash) return false;
    const given = WaitlistClaimTokens.hash(token);
    return storedHash.length === given.length && timingSafeEqual(Buffer.from(storedHash), Buffer.from(given));
  }
}
