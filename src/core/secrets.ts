/**
 * Encryption at rest for secrets the API accepts but never returns (integration `secrets`).
 *
 * AES-256-GCM from node:crypto. A sealed value is `v1.<iv>.<tag>.<ciphertext>` (base64url parts,
 * 12-byte random IV, 16-byte tag); `aad` binds it to its owner (e.g. the integration name), so a
 * ciphertext copied onto another row does not decrypt.
 *
 * The key is `SECRETS_KEY` (32 bytes, base64 or hex; checked in `config.ts`). When it is not set, a
 * key is generated on first use and kept in the `settings` table (with a warning: whoever can read
 * the database can then read the secrets).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { getOrCreateSetting } from './keys.js';

const VERSION = 'v1';
export const SECRETS_KEY_BYTES = 32;

/** Decodes a 32-byte key given as 64 hex characters or as base64/base64url; null when it is not one. */
export function parseSecretsKey(raw: string): Buffer | null {
  const value = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    const key = Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
    if (key.length === SECRETS_KEY_BYTES) return key;
  }
  return null;
}

export function encryptSecret(key: Buffer, plaintext: string, aad: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
  return [VERSION, ...parts].join('.');
}

/** The plaintext of a value made by {@link encryptSecret}; throws when the key, aad or value is wrong. */
export function decryptSecret(key: Buffer, sealed: string, aad: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) {
    throw new Error('not a sealed secret');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

const warned = new WeakSet<Db>();

/** The key from the configuration, else the one generated into the settings table (warning once). */
export async function secretsKey(db: Db, configured: Buffer | null, log?: FastifyBaseLogger): Promise<Buffer> {
  if (configured) return configured;
  const stored = await getOrCreateSetting(db, 'secrets_key', () => randomBytes(SECRETS_KEY_BYTES).toString('base64'));
  if (!warned.has(db)) {
    warned.add(db);
    log?.warn('SECRETS_KEY is not set: secrets are encrypted with a key kept in the database; set SECRETS_KEY');
  }
  return Buffer.from(stored, 'base64');
}
