/**
 * Failed sign-ins, counted in the database (every process sees the same counts) per email and per
 * client address: {@link LIMIT} failures within {@link WINDOW_MS} refuse further attempts with that
 * email, or from that address, until the oldest of them leaves the window. A limit reached by one
 * email never refuses another email from another address, so an attacker hammering one account
 * locks out neither its neighbours nor, from elsewhere, anyone but that account's next attempts.
 */
import { normalizeIP } from '@fastify/rate-limit';
import type { DbOrTrx } from '../core/service.js';
import { newId } from '../lib/ids.js';

export const LIMIT = 10;
export const WINDOW_MS = 15 * 60_000;

/** The counters an attempt counts against. */
export function attemptKeys(email: string, clientAddress: string): string[] {
  return [`email:${email.trim().toLowerCase()}`, `client:${normalizeIP(clientAddress)}`];
}

/** Seconds until an attempt may be made again, or null when none of `keys` is at its limit. */
export async function retryAfterSeconds(db: DbOrTrx, keys: string[], now = Date.now()): Promise<number | null> {
  let wait = 0;
  for (const key of keys) {
    const failures = await db
      .selectFrom('sign_in_failures')
      .select('failed_at')
      .where('key', '=', key)
      .where('failed_at', '>', new Date(now - WINDOW_MS).toISOString())
      .orderBy('failed_at', 'desc')
      .limit(LIMIT)
      .execute();
    if (failures.length < LIMIT) continue;
    // The LIMIT-th newest failure is the one whose leaving the window frees an attempt.
    const freedAt = Date.parse((failures[LIMIT - 1] as { failed_at: string }).failed_at) + WINDOW_MS;
    wait = Math.max(wait, Math.ceil((freedAt - now) / 1000));
  }
  return wait > 0 ? wait : null;
}

/** Counts a failure against each of `keys` (and forgets their failures that left the window). */
export async function recordFailure(trx: DbOrTrx, keys: string[], now = Date.now()): Promise<void> {
  const at = new Date(now).toISOString();
  await trx
    .deleteFrom('sign_in_failures')
    .where('key', 'in', keys)
    .where('failed_at', '<=', new Date(now - WINDOW_MS).toISOString())
    .execute();
  await trx
    .insertInto('sign_in_failures')
    .values(keys.map((key) => ({ id: newId(), key, failed_at: at })))
    .execute();
}

/** A successful sign-in forgets the failures counted against its email. */
export async function clearEmailFailures(trx: DbOrTrx, email: string): Promise<void> {
  await trx.deleteFrom('sign_in_failures').where('key', '=', `email:${email.trim().toLowerCase()}`).execute();
}
