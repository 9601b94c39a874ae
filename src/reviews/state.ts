/**
 * What reviews mean for a change request, computed from its reviews and review requests (pure).
 * A review is outdated when the change request moved to another revision since, when its reviewer
 * reviewed again, or when they were asked again after it (the official "superseded by a newer review
 * request or submission"). A reviewer's changes request stays outstanding until their own later
 * review replaces it, whatever the revision: an edit alone does not answer it.
 */
import type { ChangeRequestReviewRow } from '../db/schema.js';

export interface ReviewState {
  /** Ids of the outdated reviews. */
  outdated: Set<string>;
  /** Reviewers whose approval is current (made on the current revision, not superseded). */
  approvedBy: Set<string>;
  /** Reviewers whose latest review asks for changes. */
  changesRequestedBy: Set<string>;
}

export function reviewState(
  reviews: ChangeRequestReviewRow[],
  currentRevision: string,
  requests: Map<string, { at: string }>,
): ReviewState {
  const latest = new Map<string, ChangeRequestReviewRow>();
  // Oldest first: the last one written for a reviewer is their latest.
  for (const review of reviews) latest.set(review.reviewer_id, review);
  const outdated = new Set<string>();
  for (const review of reviews) {
    const askedAgain = (requests.get(review.reviewer_id)?.at ?? '') > review.created_at;
    if (review.revision_id !== currentRevision || latest.get(review.reviewer_id) !== review || askedAgain) {
      outdated.add(review.id);
    }
  }
  const approvedBy = new Set<string>();
  const changesRequestedBy = new Set<string>();
  for (const [reviewer, review] of latest) {
    if (review.status === 'changes-requested') changesRequestedBy.add(reviewer);
    else if (!outdated.has(review.id)) approvedBy.add(reviewer);
  }
  return { outdated, approvedBy, changesRequestedBy };
}
