import { randomBytes, randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new opaque, URL-safe, random identifier (20 characters, about 119 bits). */
export function newId(length = 20): string {
  let id = '';
  for (let i = 0; i < length; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

/** A new secret of `bytes` random bytes, base64url-encoded. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
