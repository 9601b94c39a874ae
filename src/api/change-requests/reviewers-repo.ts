/** Data access for a change request's requested reviewers (`change_request_reviewers`). */
import type { DbOrTrx } from '../../core/service.js';
import type { UserRow } from '../../db/schema.js';
import { type Page, paginate } from '../../lib/paging.js';
import { nowIso } from '../../lib/time.js';
import { findUsersByIds } from '../users/repo.js';

/** The users the requested reviewers show (reviewers, requesters), by id, in one query. */
export function reviewerUsers(db: DbOrTrx, rows: ReviewerRow[]): Promise<Map<string, UserRow>> {
  return findUsersByIds(db, [...new Set(rows.flatMap((r) => [r.user_id, r.requested_by]))]);
}

export interface ReviewerRow {
  change_request_id: string;
  user_id: string;
  requested_by: string;
  revision_id: string;
  created_at: string;
}

export async function addReviewers(
  db: DbOrTrx,
  changeRequestId: string,
  userIds: string[],
  requestedBy: string,
  revisionId: string,
): Promise<ReviewerRow[]> {
  const now = nowIso();
  for (const userId of userIds) {
    await db
      .insertInto('change_request_reviewers')
      .values({
        change_request_id: changeRequestId,
        user_id: userId,
        requested_by: requestedBy,
        revision_id: revisionId,
        created_at: now,
      })
      // Asking again renews the request (who, on which revision, when): reviews before it are superseded.
      .onConflict((oc) =>
        oc.columns(['change_request_id', 'user_id']).doUpdateSet((eb) => ({
          requested_by: eb.ref('excluded.requested_by'),
          revision_id: eb.ref('excluded.revision_id'),
          created_at: eb.ref('excluded.created_at'),
        })),
      )
      .execute();
  }
  return db
    .selectFrom('change_request_reviewers')
    .selectAll()
    .where('change_request_id', '=', changeRequestId)
    .where('user_id', 'in', userIds)
    .execute();
}

export async function listReviewers(
  db: DbOrTrx,
  changeRequestId: string,
  options: { page?: string; limit?: number },
): Promise<Page<ReviewerRow>> {
  const q = db
    .selectFrom('change_request_reviewers')
    .selectAll('change_request_reviewers')
    .where('change_request_reviewers.change_request_id', '=', changeRequestId);
  return paginate(
    q,
    [
      { column: 'change_request_reviewers.created_at', direction: 'asc', value: (r) => r.created_at },
      { column: 'change_request_reviewers.user_id', direction: 'asc', value: (r) => r.user_id },
    ],
    options,
  );
}

/** Removes one requested reviewer; false when that user was not requested. */
/** Withdraws the review request of `userId`; returns it, or undefined when there was none. */
export async function removeReviewer(
  db: DbOrTrx,
  changeRequestId: string,
  userId: string,
): Promise<ReviewerRow | undefined> {
  return db
    .deleteFrom('change_request_reviewers')
    .where('change_request_id', '=', changeRequestId)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}
