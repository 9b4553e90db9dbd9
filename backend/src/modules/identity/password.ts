import * as argon2 from 'argon2';

/**
 * Password hashes: argon2id at the library's recommended cost (64 MiB, 3 passes), or, in a test app
 * only (PASSWORD_HASH_COST=low, config.schema.ts), 1 MiB and 1 pass. A hash records its own cost.
 */
export type PasswordHashCost = 'standard' | 'low';

const COSTS: Record<PasswordHashCost, Pick<argon2.HashOptions, 'memoryCost' | 'timeCost' | 'parallelism'>> = {
  standard: {},
  low: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
};

export const hashPassword = (password: string, cost: PasswordHashCost = 'standard'): Promise<string> =>
  argon2.hash(password, { type: argon2.argon2id, ...COSTS[cost] });

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** Verified against when the email is unknown, so a wrong email costs the same time as a wrong password. */
const dummyHashes = new Map<PasswordHashCost, Promise<string>>();
export function timingDummyHash(cost: PasswordHashCost = 'standard'): Promise<string> {
  const known = dummyHashes.get(cost);
  if (known) return known;
  const hash = hashPassword('not-a-real-password-used-for-timing', cost);
  dummyHashes.set(cost, hash);
  return hash;
}
