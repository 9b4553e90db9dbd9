import { hashSessionToken, newSessionToken } from './session-token';

describe('session tokens', () => {
  it('are 256 random bits, stored only as their SHA-256', () => {
    const a = newSessionToken();
    const b = newSessionToken();
    expect(Buffer.from(a.token, 'base64url')).toHaveLength(32);
    expect(a.token).not.toBe(b.token);
    expect(a.hash).toBe(hashSessionToken(a.token));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).not.toContain(a.token);
  });
});
