import { hash, verify } from '@node-rs/argon2';

// `Algorithm` is a const enum, which type stripping can't inline: 2 is Argon2id.
const ARGON2ID = 2;

/** OWASP's Argon2id minimum (19 MiB, t=2, p=1), stored as a PHC string (docs/security.md#a1). */
const PARAMS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const PHC_PREFIX = `$argon2id$v=19$m=${PARAMS.memoryCost},t=${PARAMS.timeCost},p=${PARAMS.parallelism}$`;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** True when the stored hash was made with other parameters and should be redone at login. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(PHC_PREFIX);
}

/**
 * Verified against when the account doesn't exist, so an unknown user costs the same time as
 * a wrong password (docs/security.md#a3). Computed once, lazily.
 */
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy-password-for-timing-equality');
  await verifyPassword(await dummyHash, password);
  return false;
}
