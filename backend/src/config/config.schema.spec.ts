import { loadConfig } from './config.schema';

describe('loadConfig', () => {
  it('applies the embedded defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.SEED_DEMO).toBe(true);
    expect(config.DEMO_EMAIL).toBe('owner@demo.studio');
    expect(config.SESSION_TTL_DAYS).toBe(30);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT: expected a port number/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: expected a postgres/);
    expect(() => loadConfig({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO: expected true or false/);
    expect(() => loadConfig({ DEFAULT_TIMEZONE: 'Mars/Base' })).toThrow(/DEFAULT_TIMEZONE/);
    expect(() => loadConfig({ MFE_MANIFEST_JSON: '[1]' })).toThrow(/MFE_MANIFEST_JSON/);
  });

  it('hashes passwords at the standard cost; the low cost only in a test app', () => {
    expect(loadConfig({}).PASSWORD_HASH_COST).toBe('standard');
    expect(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: 'low' }).PASSWORD_HASH_COST).toBe('low');
    expect(() => loadConfig({ PASSWORD_HASH_COST: 'low' })).toThrow(/PASSWORD_HASH_COST: low is for tests only/);
    expect(() => loadConfig({ NODE_ENV: 'production', PASSWORD_HASH_COST: 'low' })).toThrow(/PASSWORD_HASH_COST/);
    expect(() => loadConfig({ PASSWORD_HASH_COST: 'none' })).toThrow(/PASSWORD_HASH_COST/);
  });

  it('reads booleans and numbers from text', () => {
    const config = loadConfig({ SEED_DEMO: 'false', PORT: '8080', SESSION_TTL_DAYS: '7' });
    expect(config).toMatchObject({ SEED_DEMO: false, PORT: 8080, SESSION_TTL_DAYS: 7 });
  });

  it('trusts no proxy by default and validates TRUSTED_PROXIES', () => {
    expect(loadConfig({}).TRUSTED_PROXIES).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: 'loopback, 10.0.0.0/8,fd00::/8 , 192.0.2.1' }).TRUSTED_PROXIES).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
      '192.0.2.1',
    ]);
    for (const wrong of ['everyone', '10.0.0.0/33', '10.0.0.0/8/1', 'example.com', 'true']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: wrong })).toThrow(/TRUSTED_PROXIES: expected comma-separated IP addresses/);
    }
  });

  it('sends mail through SMTP_URL only when it is an smtp:// or smtps:// URL with a host', () => {
    const defaults = loadConfig({});
    expect(defaults.SMTP_URL).toBeUndefined();
    expect(defaults.MAIL_FROM).toBe('Studio <no-reply@studio.local>');
    expect(defaults.MAIL_OUTBOX_DIR).toBe('data/outbox');
    for (const good of ['smtp://127.0.0.1:2525', 'smtps://user:p%40ss@mail.example.com:465', 'smtp://[::1]:25']) {
      expect(loadConfig({ SMTP_URL: good }).SMTP_URL).toBe(good);
    }
    for (const wrong of ['mail.example.com', 'http://mail.example.com', 'smtp://', 'smtp:mail', 'smtp://mail.example.com:99999']) {
      expect(() => loadConfig({ SMTP_URL: wrong })).toThrow(/SMTP_URL: expected an smtp:\/\/ or smtps:\/\/ URL with a host/);
    }
  });

  it('takes MAIL_FROM as an address or a name and <address>', () => {
    expect(loadConfig({ MAIL_FROM: 'hello@clay.studio' }).MAIL_FROM).toBe('hello@clay.studio');
    expect(loadConfig({ MAIL_FROM: 'Clay Studio <hello@clay.studio>' }).MAIL_FROM).toBe('Clay Studio <hello@clay.studio>');
    for (const wrong of ['Clay Studio', 'Clay <not-an-address>', 'a@b.test\r\nBcc: x@y.test']) {
      expect(() => loadConfig({ MAIL_FROM: wrong })).toThrow(/MAIL_FROM: expected an email address/);
    }
  });
});
