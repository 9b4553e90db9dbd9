import * as argon2 from 'argon2';

/** argon2id with the library's recommended cost (64 MiB, 3 passes). */
export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** Verified against when the email is unknown, so a wrong email costs the same time as a wrong password. */
let dummyHash: Promise<string> | undefined;
export const timingDummyHash = () => (dummyHash ??= hashPassword('not-a-real-password-used-for-timing'));
