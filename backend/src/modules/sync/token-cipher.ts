import { Inject, Injectable, Logger } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';

/** Ciphertext format version: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
const VERSION = 'v1';
const IV_BYTES = 12;

/**
 * Encrypts the providers' OAuth tokens at rest with AES-256-GCM (node:crypto). The key is
 * SYNC_TOKEN_KEY (32 bytes, base64). Outside production, with no key set, a development key is
 * created in SYNC_TOKEN_KEY_FILE (data/sync-token.key) and the log says so; in production tokens
 * cannot be stored until SYNC_TOKEN_KEY is set.
 */
@Injectable()
export class TokenCipher {
  private readonly logger = new Logger('TokenCipher');
  private key: Buffer | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  encrypt(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.requireKey(), iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      body.toString('base64url'),
    ].join('.');
  }

  /** Throws when the text was not written with this key (or was changed): GCM authenticates it. */
  decrypt(ciphertext: string): string {
    const [version, iv, tag, body] = ciphertext.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined)
      throw new Error('Not a sync token ciphertext');
    const decipher = createDecipheriv('aes-256-gcm', this.requireKey(), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  private requireKey(): Buffer {
    if (this.key) return this.key;
    if (this.config.SYNC_TOKEN_KEY) {
      this.key = Buffer.from(this.config.SYNC_TOKEN_KEY, 'base64');
      return this.key;
    }
    if (this.config.NODE_ENV === 'production') {
      throw new Error(
        'SYNC_TOKEN_KEY is not set: provider tokens cannot be stored (openssl rand -base64 32)',
      );
    }
    this.key = this.developmentKey(resolve(this.config.SYNC_TOKEN_KEY_FILE));
    return this.key;
  }

  private developmentKey(file: string): Buffer {
    if (existsSync(file)) {
      const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
      if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
      this.logger.warn(
        `SYNC_TOKEN_KEY is not set: provider tokens are encrypted with the development key in ${file}. Set SYNC_TOKEN_KEY in production.`,
      );
      return key;
    }
    const key = randomBytes(32);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    this.logger.warn(
      `SYNC_TOKEN_KEY is not set: created a development key for provider tokens in ${file}. Set SYNC_TOKEN_KEY in production.`,
    );
    return key;
  }
}
