import type { DbOrTrx } from '../../core/service.js';
import type { UserRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: DbOrTrx, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
}

export async function findUserById(db: DbOrTrx, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user with `email`, created (named `displayName`, or the address's local part) when new. */
export async function findOrCreateUser(db: DbOrTrx, email: string, displayName?: string): Promise<UserRow> {
  const existing = await findUserByEmail(db, email);
  if (existing) return existing;
  const normalized = normalizeEmail(email);
  const user: UserRow = {
    id: newId(),
    email: normalized,
    display_name: displayName ?? normalized.split('@')[0] ?? normalized,
    photo_url: null,
    created_at: nowIso(),
  };
  await db
    .insertInto('users')
    .values(user)
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  // Another request may have created it first; read back whichever row won.
  return (await findUserByEmail(db, normalized)) as UserRow;
}

/** Users with the given ids, keyed by id. */
export async function findUsersByIds(db: DbOrTrx, ids: string[]): Promise<Map<string, UserRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((u) => [u.id, u]));
}
