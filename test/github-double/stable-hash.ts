import { createHash } from 'node:crypto';

/**
 * Deterministic derivation helpers. Everything the CSV lacks (ids, licences, commit counts…)
 * comes from these, seeded by the repository's lower-case full name, so every run, process and
 * machine sees the same numbers, and tests can rely on them.
 */

/** 32-bit FNV-1a with a murmur3 finaliser, so near-identical seeds spread over the range. */
export function hashUint32(seed: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A number in [0, 1) derived from the seed. */
export function hashUnit(seed: string): number {
  return hashUint32(seed) / 0x1_0000_0000;
}

/** An integer in [min, max] (inclusive) derived from the seed. */
export function hashInt(seed: string, min: number, max: number): number {
  return min + Math.floor(hashUnit(seed) * (max - min + 1));
}

/** An integer in [min, max] spread evenly on a log scale, for counts that span magnitudes. */
export function hashLogInt(seed: string, min: number, max: number): number {
  const logMin = Math.log(min);
  const logMax = Math.log(max);
  return Math.round(Math.exp(logMin + hashUnit(seed) * (logMax - logMin)));
}

/** One element of a non-empty list, chosen by the seed. */
export function hashPick<T>(seed: string, items: readonly T[]): T {
  const item = items[hashUint32(seed) % items.length];
  if (item === undefined) {
    throw new Error('hashPick needs a non-empty list');
  }
  return item;
}

/** 40 hex characters, the shape of a git object id. */
export function hashSha1(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

/** 64 hex characters, the shape of GitHub's ETag values. */
export function hashSha256(seed: string): string {
  return createHash('sha256').update(seed).digest('hex');
}
