import type { DbOrTrx } from '../../core/service.js';
import { prepare } from '../../db/prepared.js';
import type { UserRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: DbOrTrx, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
}

/** A user by id, compiled once: a comment's answer reads its author with it. */
const userById = prepare((db, p: { id: string }) => db.selectFrom('users').selectAll().where('id', '=', p.id));

export async function findUserById(db: DbOrTrx, id: string): Promise<UserRow | undefined> {
  return userById.first(db, { id });
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

/**
 * Whether `viewerId` may see user `userId`: themself, or a member of an organization where the
 * viewer is an enabled member who is not a guest (who can list its members).
 */
export async function canSeeUser(db: DbOrTrx, viewerId: string, userId: string): Promise<boolean> {
  if (viewerId === userId) return true;
  const row = await db
    .selectFrom('members as viewer')
    .innerJoin('members as seen', 'seen.organization_id', 'viewer.organization_id')
    .select('viewer.organization_id')
    .where('viewer.user_id', '=', viewerId)
    .where('viewer.role', 'is not', null)
    .where('viewer.disabled', '=', 0)
    .where('seen.user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The organizations `userId` is a member of (their audit logs record changes of the user). */
export async function organizationsOfUser(db: DbOrTrx, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('members').select('organization_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.organization_id);
}

export async function updateUserProfile(
  db: DbOrTrx,
  userId: string,
  changes: Partial<Pick<UserRow, 'display_name' | 'photo_url'>>,
): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}
