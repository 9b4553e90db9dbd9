import { hashPassword, timingDummyHash, verifyPassword } from './password';

describe('password hashes (argon2id)', () => {
  it('verifies a hash of either cost, and the hash says its cost', async () => {
    const standard = await hashPassword('correct horse battery');
    const low = await hashPassword('correct horse battery', 'low');
    expect(standard).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
    expect(low).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/);
    for (const hash of [standard, low]) {
      expect(await verifyPassword(hash, 'correct horse battery')).toBe(true);
      expect(await verifyPassword(hash, 'wrong horse battery')).toBe(false);
    }
    expect(await verifyPassword('not a hash', 'anything')).toBe(false);
  });

  it('the timing dummy is made once per cost, at that cost', async () => {
    expect(await timingDummyHash('low')).toMatch(/m=1024,p=1,t=1/);
    expect(timingDummyHash('low')).toBe(timingDummyHash('low'));
  });
});
