import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../config/config.schema';
import { TokenCipher } from './token-cipher';

const KEY = Buffer.alloc(32, 7).toString('base64');

describe('TokenCipher', () => {
  it('round-trips a token and never writes the plaintext', () => {
    const cipher = new TokenCipher(loadConfig({ SYNC_TOKEN_KEY: KEY }));
    const sealed = cipher.encrypt('secret-access-token');
    expect(sealed).not.toContain('secret-access-token');
    expect(cipher.encrypt('secret-access-token')).not.toBe(sealed);
    expect(cipher.decrypt(sealed)).toBe('secret-access-token');
  });

  it('refuses a changed ciphertext, or one written with another key', () => {
    const cipher = new TokenCipher(loadConfig({ SYNC_TOKEN_KEY: KEY }));
    const sealed = cipher.encrypt('token');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tokem').toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'))).toThrow();
    const other = new TokenCipher(loadConfig({ SYNC_TOKEN_KEY: Buffer.alloc(32, 8).toString('base64') }));
    expect(() => other.decrypt(sealed)).toThrow();
  });

  it('refuses a key that is not 32 bytes of base64', () => {
    expect(() => loadConfig({ SYNC_TOKEN_KEY: Buffer.alloc(16).toString('base64') })).toThrow(
      /SYNC_TOKEN_KEY/,
    );
  });

  it('without a key, outside production, keeps a development key in a file and reuses it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sync-key-')), 'data', 'sync-token.key');
    const first = new TokenCipher(loadConfig({ SYNC_TOKEN_KEY_FILE: file }));
    const sealed = first.encrypt('token');
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(new TokenCipher(loadConfig({ SYNC_TOKEN_KEY_FILE: file })).decrypt(sealed)).toBe('token');
  });

  it('in production without a key, refuses to store tokens', () => {
    const cipher = new TokenCipher(loadConfig({ NODE_ENV: 'production' }));
    expect(() => cipher.encrypt('token')).toThrow(/SYNC_TOKEN_KEY is not set/);
  });
});
