/** Queries the review model reads: a change request's reviews, its review requests, the merge rules in force. */
import type { DbOrTrx } from '../core/service.js';
import type { ChangeRequestReviewRow } from '../db/schema.js';

/** Every review of a change request, oldest first (a change request has few). */
export async function reviewsOf(db: DbOrTrx, changeRequestId: string): Promise<ChangeRequestReviewRow[]> {
  return db
    .selectFrom('change_request_reviews')
    .selectAll()
    .where('change_request_id', '=', changeRequestId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** When each requested reviewer of the change request was (last) asked, by user id. */
export async function reviewRequests(
  db: DbOrTrx,
  changeRequestId: string,
): Promise<Map<string, { requestedBy: string; at: string }>> {
  const rows = await db
    .selectFrom('change_request_reviewers')
    .select(['user_id', 'requested_by', 'created_at'])
    .where('change_request_id', '=', changeRequestId)
    .execute();
  return new Map(rows.map((r) => [r.user_id, { requestedBy: r.requested_by, at: r.created_at }]));
}

/** The merge rules of the space and of its organization, as stored (JSON or null). */
export async function storedMergeRules(
  db: DbOrTrx,
  spaceId: string,
): Promise<{ space: string | null; organization: string | null }> {
  const row = await db
    .selectFrom('spaces')
    .innerJoin('organizations', 'organizations.id', 'spaces.organization_id')
    .select(['spaces.merge_rules as space', 'organizations.merge_rules as organization'])
    .where('spaces.id', '=', spaceId)
    .executeTakeFirst();
  return { space: row?.space ?? null, organization: row?.organization ?? null };
}
