import type { Static } from 'typebox';
import type { ChangeRequestRow, SpaceRow, UserRow } from '../../db/schema.js';
import type { Urls } from '../../lib/urls.js';
import { presentUser } from '../users/present.js';
import type { ChangeRequestExtras } from './repo.js';
import type { ReviewerRow } from './reviewers-repo.js';
import type { ChangeRequest, ChangeRequestStatus, RequestedReviewer } from './schemas.js';

export type ChangeRequestObject = Static<typeof ChangeRequest>;

/** A user that no longer exists still shows as a user (with its id), so responses stay well-formed. */
function userOrPlaceholder(users: Map<string, UserRow>, id: string, urls: Urls) {
  const user = users.get(id) ?? { id, email: '', display_name: 'Deleted user', photo_url: null };
  return presentUser(user, urls);
}

/**
 * The live revision a change request's changes count from: the one it was last brought up to date
 * with (`…/update`), else the one it started from. Its merge is a three-way merge from it.
 */
export function baseRevisionId(row: ChangeRequestRow): string {
  return row.revision_merged_ancestor ?? row.revision_initial;
}

export function changeRequestPath(spaceId: string, changeRequestId: string): string {
  return `/spaces/${spaceId}/change-requests/${changeRequestId}`;
}

/** Change requests of `space`, with what `changeRequestExtras` loaded for them (users, comment counts). */
export function presentChangeRequests(
  rows: ChangeRequestRow[],
  space: SpaceRow,
  { users, comments }: ChangeRequestExtras,
  urls: Urls,
): ChangeRequestObject[] {
  return rows.map((row) => ({
    object: 'change-request' as const,
    id: row.id,
    number: row.number,
    status: row.status as ChangeRequestStatus,
    subject: row.subject,
    createdBy: userOrPlaceholder(users, row.created_by, urls),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.merged_by ? { mergedBy: userOrPlaceholder(users, row.merged_by, urls) } : {}),
    ...(row.merged_at ? { mergedAt: row.merged_at } : {}),
    space: row.space_id,
    revision: row.revision_id,
    revisionInitial: row.revision_initial,
    ...(row.revision_merged_ancestor ? { revisionMergedAncestor: row.revision_merged_ancestor } : {}),
    ...(row.revision_merged ? { revisionMerged: row.revision_merged } : {}),
    comments: comments.get(row.id) ?? 0,
    // Outdated: the live content moved on since the change request started (and it is not merged).
    outdated: row.status !== 'merged' && space.revision_id !== baseRevisionId(row),
    urls: {
      app: urls.app(`/s/${space.id}/~/changes/${row.number}`),
      location: urls.api(changeRequestPath(space.id, row.id)),
    },
  }));
}

export function presentChangeRequest(
  row: ChangeRequestRow,
  space: SpaceRow,
  extras: ChangeRequestExtras,
  urls: Urls,
): ChangeRequestObject {
  return presentChangeRequests([row], space, extras, urls)[0] as ChangeRequestObject;
}

/** Requested reviewers; `users` holds the reviewers and who requested them (`reviewerUsers`). */
export function presentReviewers(
  rows: ReviewerRow[],
  users: Map<string, UserRow>,
  urls: Urls,
): Array<Static<typeof RequestedReviewer>> {
  return rows.map((row) => ({
    object: 'change-request-requested-reviewer' as const,
    revision: row.revision_id,
    requestedBy: userOrPlaceholder(users, row.requested_by, urls),
    createdAt: row.created_at,
    kind: 'user' as const,
    user: userOrPlaceholder(users, row.user_id, urls),
  }));
}
