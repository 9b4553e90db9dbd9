import { SessionCache } from './session-cache';

const ctx = (sessionId: string, userId = 'u1') => ({ sessionId, userId, role: 'owner' as const, organizationId: 'o1' });
const far = new Date(Date.now() + 3600_000);

describe('SessionCache', () => {
  it('answers a token for the TTL only, and never past the session expiry', () => {
    let now = 1_000;
    const cache = new SessionCache(5_000, 10, () => now);
    cache.set('h1', ctx('s1'), new Date(8_000_000));
    cache.set('h2', ctx('s2'), new Date(3_000));
    now = 2_999;
    expect(cache.get('h1')?.sessionId).toBe('s1');
    expect(cache.get('h2')?.sessionId).toBe('s2');
    now = 3_000;
    expect(cache.get('h2')).toBeNull();
    now = 6_000;
    expect(cache.get('h1')).toBeNull();
  });

  it('forgets a signed-out session, and every session of a user signed out everywhere', () => {
    const cache = new SessionCache();
    cache.set('a', ctx('s1', 'u1'), far);
    cache.set('b', ctx('s2', 'u1'), far);
    cache.set('c', ctx('s3', 'u2'), far);
    cache.forgetSession('s1');
    expect(cache.get('a')).toBeNull();
    expect(cache.get('b')).not.toBeNull();
    cache.forgetUser('u1');
    expect(cache.get('b')).toBeNull();
    expect(cache.get('c')?.sessionId).toBe('s3');
  });

  it('keeps at most its bound, dropping the least recently used', () => {
    const cache = new SessionCache(5_000, 2);
    cache.set('a', ctx('s1'), far);
    cache.set('b', ctx('s2'), far);
    cache.get('a');
    cache.set('c', ctx('s3'), far);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeNull();
    expect(cache.get('a')).not.toBeNull();
    expect(cache.get('c')).not.toBeNull();
  });
});
