import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { BOOKING_KINDS, type BookingKind } from '@studio/contracts';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppSecret } from '../../common/app-secret';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { OrganizationsService } from '../organizations/organizations.service';

/** The booking a manage token names, once its signature is checked. */
export interface SignedBooking {
  kind: BookingKind;
  id: string;
}

const KIND_LETTER: Record<BookingKind, string> = { enrollment: 'e', appointment: 'a' };
const TOKEN = /^([ea])_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;
/** The longest a manage token can be: anything longer is refused before any work. */
export const MANAGE_TOKEN_MAX = 2 + 36 + 1 + 43;
const SECRET_NAME = 'booking_link';

/**
 * The manage link of a booking (issue 23): `PUBLIC_APP_URL/s/{slug}/booking/{token}`, where the
 * token is the booking's kind and id with an HMAC-SHA256 of both under a server key
 * (BOOKING_LINK_SECRET, or one made once and kept in the database): unguessable, no password, and
 * checked in constant time. Every confirmation mail (and the reminders) carries urlFor's link.
 */
@Injectable()
export class BookingLinksService {
  private readonly secret: AppSecret;

  constructor(
    private readonly em: EntityManager,
    private readonly organizations: OrganizationsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secret = new AppSecret(em, config, SECRET_NAME);
  }

  /** The absolute address of the booking's own page in the organization's store. */
  async urlFor(organizationId: string, kind: BookingKind, id: string): Promise<string> {
    const store = await this.organizations.appStoreUrlById(organizationId);
    if (!store) throw new Error(`No organization ${organizationId}`);
    return `${store}/booking/${await this.tokenFor(kind, id)}`;
  }

  /** The manage token of a booking. */
  async tokenFor(kind: BookingKind, id: string): Promise<string> {
    return `${KIND_LETTER[kind]}_${id.toLowerCase()}_${await this.sign(kind, id.toLowerCase())}`;
  }

  /** The booking a token names when its signature is this server's; null for anything else. */
  async verify(token: string): Promise<SignedBooking | null> {
    if (typeof token !== 'string' || token.length > MANAGE_TOKEN_MAX) return null;
    const match = TOKEN.exec(token);
    if (!match) return null;
    const kind = BOOKING_KINDS.find((k) => KIND_LETTER[k] === match[1])!;
    const expected = Buffer.from(await this.sign(kind, match[2]));
    const given = Buffer.from(match[3]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return { kind, id: match[2] };
  }

  /**
   * A store order's secret page token (issue 31): an HMAC of the order's id under the same key, so a
   * resumed checkout answers the same confirmation link again while the order keeps only its hash.
   */
  async orderToken(orderId: string): Promise<string> {
    return createHmac('sha256', await this.secret.get())
      .update(`store-order:${orderId.toLowerCase()}`)
      .digest('base64url');
  }

  private async sign(kind: BookingKind, id: string): Promise<string> {
    return createHmac('sha256', await this.secret.get())
      .update(`${kind}:${id}`)
      .digest('base64url');
  }
}
