/**
 * The live content of a space: which revision readers see. A merge and a Git import both move it;
 * both go through {@link advanceLive}, inside the transaction that wrote the revision.
 */
import type { Transaction } from 'kysely';
import type { DbOrTrx } from '../core/service.js';
import type { Database, SpaceRow } from '../db/schema.js';
import { indexSpace } from '../search/index.js';

/** The space row (deleted or not), read in the caller's transaction or on the database. */
export async function findSpaceRow(db: DbOrTrx, spaceId: string): Promise<SpaceRow | undefined> {
  return db.selectFrom('spaces').selectAll().where('id', '=', spaceId).executeTakeFirst();
}

/**
 * Makes `revisionId` the live revision of `spaceId` only if the live revision is still `expected`
 * (compare-and-set: a merge or import that landed meanwhile wins, and this one is refused), then
 * rebuilds the search index from it in the same transaction (AI answers read it). False when the
 * live content moved on.
 */
export async function advanceLive(
  trx: Transaction<Database>,
  spaceId: string,
  expected: string,
  revisionId: string,
  at: string,
): Promise<boolean> {
  const moved = await trx
    .updateTable('spaces')
    .set({ revision_id: revisionId, updated_at: at })
    .where('id', '=', spaceId)
    .where('revision_id', '=', expected)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 0) return false;
  await indexSpace(trx, spaceId);
  return true;
}
