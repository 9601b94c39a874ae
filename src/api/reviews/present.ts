/** ChangeRequestReview and contributor objects, from rows and what was loaded for them. Pure. */
import type { Static } from 'typebox';
import type { ChangeRequestReviewRow, UserRow } from '../../db/schema.js';
import type { Urls } from '../../lib/urls.js';
import type { Comment } from '../comments/schemas.js';
import { presentUser } from '../users/present.js';
import type { EditContribution } from './repo.js';
import type { ChangeRequestContributor, ChangeRequestReview, ReviewStatus } from './schemas.js';

export interface ReviewContext {
  urls: Urls;
  users: Map<string, UserRow>;
  outdated: Set<string>;
  /** The presented comments of the reviews that have one, by comment id. */
  comments: Map<string, Static<typeof Comment>>;
}

function user(urls: Urls, users: Map<string, UserRow>, id: string) {
  return presentUser(users.get(id) ?? { id, email: '', display_name: 'Deleted user', photo_url: null }, urls);
}

export function reviewPath(spaceId: string, changeRequestId: string, reviewId: string): string {
  return `/spaces/${spaceId}/change-requests/${changeRequestId}/reviews/${reviewId}`;
}

export function presentReview(
  ctx: ReviewContext,
  spaceId: string,
  row: ChangeRequestReviewRow,
): Static<typeof ChangeRequestReview> {
  const comment = row.comment_id ? ctx.comments.get(row.comment_id) : undefined;
  return {
    object: 'change-request-review',
    id: row.id,
    revision: row.revision_id,
    reviewer: user(ctx.urls, ctx.users, row.reviewer_id),
    ...(row.requested_by ? { requestedBy: user(ctx.urls, ctx.users, row.requested_by) } : {}),
    status: row.status as ReviewStatus,
    outdated: ctx.outdated.has(row.id),
    ...(comment ? { comment } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: { location: ctx.urls.api(reviewPath(spaceId, row.change_request_id, row.id)) },
  };
}

export function presentContributors(
  urls: Urls,
  users: Map<string, UserRow>,
  edits: EditContribution[],
  comments: EditContribution[],
): Array<Static<typeof ChangeRequestContributor>> {
  const entry = (c: EditContribution, actionType: 'edit' | 'comment') => ({
    updatedAt: c.last,
    count: c.count,
    user: user(urls, users, c.userId),
    actionType,
  });
  // Most recent first: who is active on the change request now.
  return [...edits.map((c) => entry(c, 'edit')), ...comments.map((c) => entry(c, 'comment'))].sort((a, b) =>
    a.updatedAt === b.updatedAt ? a.user.id.localeCompare(b.user.id) : a.updatedAt < b.updatedAt ? 1 : -1,
  );
}
