/**
 * Server-wide secrets generated on first use and kept in the `settings` table, so every process on
 * the same database agrees on them.
 */
import type { Db } from '../db/database.js';
import { newSecret } from '../lib/ids.js';

const cache = new WeakMap<Db, Map<string, string>>();

/** The value of setting `key`, created with `generate()` if it does not exist yet. */
export async function getOrCreateSetting(db: Db, key: string, generate: () => string): Promise<string> {
  const known = cache.get(db)?.get(key);
  if (known) return known;
  const stored = () => db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  // Insert only when missing: an INSERT that does nothing still tells every other process on
  // PostgreSQL that data changed (src/db/change-triggers.ts).
  let row = await stored();
  if (!row) {
    await db
      .insertInto('settings')
      .values({ key, value: generate() })
      .onConflict((oc) => oc.column('key').doNothing()) // another process made it meanwhile
      .execute();
    row = await stored();
  }
  if (!row) throw new Error(`setting ${key} missing after being made`);
  if (!cache.has(db)) cache.set(db, new Map());
  cache.get(db)?.set(key, row.value);
  return row.value;
}

/** HMAC key that signs visitor claims (JWT, HS256). */
export async function signingKey(db: Db): Promise<Uint8Array> {
  const value = await getOrCreateSetting(db, 'signing_key', () => newSecret(32));
  return Buffer.from(value, 'base64url');
}
