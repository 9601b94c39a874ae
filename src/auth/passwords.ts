/**
 * Passwords: Argon2id (`@node-rs/argon2`, its default parameters: 19 MiB, 2 passes), stored one row
 * per user who has one (a user who signs in only through SSO has none). Reset tokens are random,
 * stored as their SHA-256, used once, within {@link RESET_TTL_MS}.
 */
import { hash, verify } from '@node-rs/argon2';
import type { DbOrTrx } from '../core/service.js';
import { hashSecret } from '../core/tokens.js';
import { badRequest } from '../lib/errors.js';
import { newId, newSecret } from '../lib/ids.js';

export const MIN_PASSWORD_LENGTH = 10;
/** Longer ones are refused: hashing megabytes would cost the server more than the caller. */
export const MAX_PASSWORD_LENGTH = 1024;
export const RESET_TTL_MS = 30 * 60_000;

/** Throws the 400 a password too short or too long gets. */
export function checkPasswordRules(password: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw badRequest(`the password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw badRequest(`the password must be at most ${MAX_PASSWORD_LENGTH} characters`);
  }
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** A hash of a password nobody knows, checked when there is no user or no password, so both take as long. */
let dummyHash: Promise<string> | null = null;

/**
 * Whether `password` is the one of `stored` (null: no such user, or one without a password: false,
 * after as much work as a real check).
 */
export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    dummyHash ??= hash(newSecret());
    await verify(await dummyHash, password.slice(0, MAX_PASSWORD_LENGTH)).catch(() => false);
    return false;
  }
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  return verify(stored, password).catch(() => false);
}

export async function storedPasswordHash(db: DbOrTrx, userId: string): Promise<string | null> {
  const row = await db.selectFrom('user_passwords').select('hash').where('user_id', '=', userId).executeTakeFirst();
  return row?.hash ?? null;
}

export async function writePasswordHash(trx: DbOrTrx, userId: string, passwordHash: string): Promise<void> {
  const updated_at = new Date().toISOString();
  await trx
    .insertInto('user_passwords')
    .values({ user_id: userId, hash: passwordHash, updated_at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ hash: passwordHash, updated_at }))
    .execute();
}

/** A new reset token for `userId` (returned once; only its hash is stored). */
export async function createResetToken(trx: DbOrTrx, userId: string, now = Date.now()): Promise<string> {
  const token = newSecret();
  await trx
    .insertInto('password_resets')
    .values({
      id: newId(),
      user_id: userId,
      token_hash: hashSecret(token),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + RESET_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  // Spent and expired tokens of the user are of no further use.
  await trx
    .deleteFrom('password_resets')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', new Date(now).toISOString())]))
    .execute();
  return token;
}

/**
 * Marks the reset token used and answers its user's id; null when it is unknown, used or expired
 * (a token is used once: a second use, or a concurrent one, finds it taken).
 */
export async function consumeResetToken(trx: DbOrTrx, token: string, now = Date.now()): Promise<string | null> {
  const at = new Date(now).toISOString();
  const row = await trx
    .updateTable('password_resets')
    .set({ used_at: at })
    .where('token_hash', '=', hashSecret(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}
