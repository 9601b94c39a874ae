/** Queries of change request reviews, the review requests they answer, and contributors. */
import type { DbOrTrx } from '../../core/service.js';
import { toCount } from '../../db/dialect.js';
import type { ChangeRequestReviewRow } from '../../db/schema.js';

export async function insertReview(db: DbOrTrx, row: ChangeRequestReviewRow): Promise<void> {
  await db.insertInto('change_request_reviews').values(row).execute();
}

export interface EditContribution {
  userId: string;
  count: number;
  last: string;
}

/**
 * Who made the revisions of a change request: its revisions are those reachable from its current
 * one through first parents until the revision it started from. Loaded as one query of the space's
 * revisions (ids, parents and authors only) and walked in memory.
 */
export async function editContributions(
  db: DbOrTrx,
  spaceId: string,
  from: string,
  to: string,
): Promise<EditContribution[]> {
  const rows = await db
    .selectFrom('revisions')
    .select(['id', 'parents', 'created_by', 'created_at'])
    .where('space_id', '=', spaceId)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const byUser = new Map<string, EditContribution>();
  const seen = new Set<string>();
  for (let id: string | undefined = to; id && id !== from && !seen.has(id); ) {
    seen.add(id);
    const row = byId.get(id);
    if (!row) break;
    if (row.created_by) {
      const entry = byUser.get(row.created_by) ?? { userId: row.created_by, count: 0, last: row.created_at };
      entry.count += 1;
      if (row.created_at > entry.last) entry.last = row.created_at;
      byUser.set(row.created_by, entry);
    }
    id = (JSON.parse(row.parents) as string[])[0];
  }
  return [...byUser.values()];
}

/** Who commented in the change request (comments and replies): how often and when last. */
export async function commentContributions(db: DbOrTrx, changeRequestId: string): Promise<EditContribution[]> {
  const rows = await db
    .selectFrom('comments')
    .select(['posted_by', (eb) => eb.fn.countAll().as('count'), (eb) => eb.fn.max('posted_at').as('last')])
    .where('change_request_id', '=', changeRequestId)
    .groupBy('posted_by')
    .execute();
  return rows.map((r) => ({ userId: r.posted_by, count: toCount(r.count as number | string), last: String(r.last) }));
}
