/**
 * Reviews of change requests: submitting one (approved or changes requested, with an optional
 * comment), and reading them with what they mean now (outdated or not). A review is made on the
 * change request's current revision; requested reviewers and members with the `review` role review,
 * the change request's author does not review their own.
 */

import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../core/service.js';
import type { ChangeRequestReviewRow, ChangeRequestRow, SpaceRow } from '../../db/schema.js';
import { recordEvent } from '../../events/record.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Role } from '../../lib/schemas.js';
import { nowIso } from '../../lib/time.js';
import { atLeast } from '../../permissions/roles.js';
import { reviewRequests, reviewsOf } from '../../reviews/repo.js';
import { reviewState } from '../../reviews/state.js';
import { authorizeChangeRequest } from '../change-requests/open.js';
import type { BodyFormat, BodyInput } from '../comments/body.js';
import { loadCommentContext } from '../comments/load.js';
import { presentComment } from '../comments/present.js';
import { findComment } from '../comments/repo.js';
import { postComment } from '../comments/service.js';
import { findUsersByIds } from '../users/repo.js';
import { presentReview, type ReviewContext } from './present.js';
import { insertReview } from './repo.js';
import type { ReviewStatus } from './schemas.js';

export interface ReviewScope {
  space: SpaceRow;
  changeRequest: ChangeRequestRow;
  role: Role;
}

/** The change request for a reader of its space (404 otherwise). */
export async function openChangeRequest(ctx: ServiceContext, spaceId: string, key: string): Promise<ReviewScope> {
  const { space, changeRequest, role } = await authorizeChangeRequest(
    ctx.db,
    actingUser(ctx).id,
    spaceId,
    key,
    'read',
    'read it',
  );
  return { space, changeRequest, role };
}

/**
 * The reviews of a change request with everything presenting them needs (users, outdated flags,
 * comments), in a fixed number of queries.
 */
export async function loadReviews(
  db: DbOrTrx,
  ctx: Pick<ServiceContext, 'urls'> & { viewerId: string },
  scope: ReviewScope,
  format: BodyFormat = 'document',
): Promise<{ reviews: ChangeRequestReviewRow[]; view: ReviewContext }> {
  const [reviews, requests] = await Promise.all([
    reviewsOf(db, scope.changeRequest.id),
    reviewRequests(db, scope.changeRequest.id),
  ]);
  const { outdated } = reviewState(reviews, scope.changeRequest.revision_id, requests);
  const thread = { spaceId: scope.space.id, changeRequestId: scope.changeRequest.id };
  const commentRows = (
    await Promise.all(reviews.flatMap((r) => (r.comment_id ? [findComment(db, thread, r.comment_id)] : [])))
  ).flatMap((c) => (c ? [c] : []));
  const commentView = await loadCommentContext(
    db,
    ctx.urls,
    { userId: ctx.viewerId, role: scope.role },
    commentRows,
    format,
  );
  const comments = new Map(commentRows.map((c) => [c.id, presentComment(commentView, thread, c)]));
  const users = await findUsersByIds(db, [
    ...new Set(reviews.flatMap((r) => [r.reviewer_id, ...(r.requested_by ? [r.requested_by] : [])])),
  ]);
  return { reviews, view: { urls: ctx.urls, users, outdated, comments } };
}

/** Submits a review of the change request's current revision; records `change_request.review_submitted`. */
export async function submitReview(
  ctx: ServiceContext,
  spaceId: string,
  changeRequestKey: string,
  input: { status: ReviewStatus; comment?: BodyInput },
): Promise<ReviewScope & { review: ChangeRequestReviewRow }> {
  const user = actingUser(ctx);
  const scope = await openChangeRequest(ctx, spaceId, changeRequestKey);
  const { changeRequest } = scope;
  const requests = await reviewRequests(ctx.db, changeRequest.id);
  const request = requests.get(user.id);
  if (!request && !atLeast(scope.role, 'review')) {
    throw forbidden('you need the review role on this space, or to be a requested reviewer, to review');
  }
  if (changeRequest.created_by === user.id) throw forbidden('the author of a change request cannot review it');
  if (changeRequest.status !== 'open' && changeRequest.status !== 'draft') {
    throw conflict(`change request ${changeRequest.number} is ${changeRequest.status}; it cannot be reviewed`);
  }
  const now = nowIso();
  const review: ChangeRequestReviewRow = {
    id: newId(),
    change_request_id: changeRequest.id,
    reviewer_id: user.id,
    requested_by: request?.requestedBy ?? null,
    status: input.status,
    revision_id: changeRequest.revision_id,
    comment_id: null,
    created_at: now,
    updated_at: now,
  };
  await inTransaction(ctx.db, async (trx) => {
    if (input.comment !== undefined) {
      const ref = { spaceId: scope.space.id, changeRequest: changeRequest.id };
      const posted = await postComment({ ...ctx, db: trx }, ref, { body: input.comment, reviewId: review.id });
      review.comment_id = posted.comment.id;
    }
    await insertReview(trx, review);
    const { reviews, view } = await loadReviews(trx, { urls: ctx.urls, viewerId: user.id }, scope);
    const stored = reviews.find((r) => r.id === review.id) ?? review;
    await recordEvent(trx, ctx, {
      type: 'change_request.review_submitted',
      organizationId: scope.space.organization_id,
      target: { object: 'change-request-review', id: review.id },
      data: { object: presentReview(view, scope.space.id, stored) },
    });
  });
  return { ...scope, review };
}

/** One review of the change request, or 404. */
export function requireReview(reviews: ChangeRequestReviewRow[], reviewId: string): ChangeRequestReviewRow {
  const review = reviews.find((r) => r.id === reviewId);
  if (!review) throw notFound(`review ${reviewId} not found`);
  return review;
}
