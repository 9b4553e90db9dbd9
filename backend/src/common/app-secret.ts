import { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../config/config.schema';

/**
 * A key of the server's own, for the HMACs that make links and codes nobody else can make (the
 * bookings' manage links, gift card codes, the waitlist's claim tokens): BOOKING_LINK_SECRET when it
 * is set, else a random key made once per name and kept in the database (table app_secret: the
 * first process to insert it wins, the others read it), so every replica and every restart derives
 * the same values. Each use puts its own prefix in what it signs, so one key serves them all.
 */
export class AppSecret {
  private key: Promise<Buffer> | null = null;

  constructor(
    private readonly em: EntityManager,
    private readonly config: Pick<AppConfig, 'BOOKING_LINK_SECRET'>,
    private readonly name: string,
  ) {}

  get(): Promise<Buffer> {
    if (this.config.BOOKING_LINK_SECRET) return Promise.resolve(Buffer.from(this.config.BOOKING_LINK_SECRET));
    this.key ??= this.stored().catch((error) => {
      this.key = null;
      throw error;
    });
    return this.key;
  }

  private async stored(): Promise<Buffer> {
    const connection = this.em.fork().getConnection();
    await connection.execute(`insert into app_secret (name, value) values (?, ?) on conflict (name) do nothing`, [
      this.name,
      randomBytes(32).toString('base64url'),
    ]);
    const [row] = await connection.execute<{ value: string }[]>(`select value from app_secret where name = ?`, [this.name]);
    return Buffer.from(row.value);
  }
}
