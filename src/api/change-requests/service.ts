/**
 * Every change of a change request's lifecycle: create, update (subject, status), merge into the
 * live content, and its requested reviewers. Editors create, update and request reviews; reviewers
 * (and higher) merge. Changes of its content (batch edits, imports) are the content area's.
 */

import { type MergeConflict, threeWayMerge } from '../../content/merge.js';
import { loadRevision, writeRevision } from '../../content/store.js';
import { actingUser, inTransaction, type ServiceContext } from '../../core/service.js';
import { isUniqueViolation } from '../../db/dialect.js';
import type { ChangeRequestRow, SpaceRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import { authorizeSpace } from '../../permissions/content.js';
import { loadViewer } from '../../permissions/resolver.js';
import { atLeast } from '../../permissions/roles.js';
import { checkMergeRules } from '../../reviews/merge-rules.js';
import { advanceLive, findSpaceRow } from '../../services/live.js';
import {
  presentedChangeRequest,
  recordChangeRequestEvent,
  recordContentUpdated,
  recordReviewersEvent,
} from './events.js';
import { authorizeChangeRequest, changeRequestSnapshot, requireEditable } from './open.js';
import { baseRevisionId } from './present.js';
import {
  findChangeRequest,
  insertChangeRequest,
  markMerged,
  markUpdated,
  updateChangeRequest as updateChangeRequestRow,
} from './repo.js';
import { addReviewers, type ReviewerRow, removeReviewer } from './reviewers-repo.js';

/** A change request with its space, both as they are after the change. */
export interface ChangeRequestState {
  space: SpaceRow;
  changeRequest: ChangeRequestRow;
}

/** The change request as stored now, with its space (a merge elsewhere may have moved the live revision). */
async function reload(ctx: ServiceContext, spaceId: string, id: string): Promise<ChangeRequestState> {
  const [space, changeRequest] = await Promise.all([
    findSpaceRow(ctx.db, spaceId),
    findChangeRequest(ctx.db, spaceId, id),
  ]);
  if (!space || !changeRequest) throw new Error(`change request ${id} of space ${spaceId} is gone`);
  return { space, changeRequest };
}

/**
 * Creates a change request on the live content. A user needs `edit` on the space; the system (a
 * Git import into a new change request, authorized when it was queued) creates it for `createdBy`.
 */
export async function createChangeRequest(
  ctx: ServiceContext,
  spaceId: string,
  input: { subject?: string; createdBy?: string },
): Promise<ChangeRequestState> {
  let space: SpaceRow;
  let createdBy: string;
  if (ctx.actor.type === 'system') {
    const row = await findSpaceRow(ctx.db, spaceId);
    if (!row || !input.createdBy) throw notFound(`space ${spaceId} not found`);
    space = row;
    createdBy = input.createdBy;
  } else {
    createdBy = actingUser(ctx).id;
    space = (await authorizeSpace(ctx.db, createdBy, spaceId, 'edit', 'create change requests')).row;
  }
  // Two concurrent creations may pick the same number; the unique index refuses one, which retries.
  for (let attempt = 0; ; attempt++) {
    try {
      const changeRequest = await inTransaction(ctx.db, async (trx) => {
        const row = await insertChangeRequest(trx, space.id, createdBy, input.subject ?? '');
        await recordChangeRequestEvent(trx, ctx, 'change_request.created', space.id, row.id);
        return row;
      });
      return { space, changeRequest };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 4 || ctx.db.isTransaction) throw error;
    }
  }
}

/** Changes the subject or the status (a merged change request keeps its status: 409). */
export async function updateChangeRequest(
  ctx: ServiceContext,
  spaceId: string,
  changeRequestKey: string,
  patch: { subject?: string; status?: string },
): Promise<ChangeRequestState> {
  const { space, changeRequest } = await authorizeChangeRequest(
    ctx.db,
    actingUser(ctx).id,
    spaceId,
    changeRequestKey,
    'edit',
    'update change requests',
  );
  if (patch.status !== undefined && changeRequest.status === 'merged') {
    throw conflict(`change request ${changeRequest.number} is merged; its status cannot change`);
  }
  await inTransaction(ctx.db, async (trx) => {
    const { object: before } = await presentedChangeRequest(trx, ctx, space.id, changeRequest.id);
    await updateChangeRequestRow(trx, changeRequest.id, patch);
    const closed = patch.status === 'archived' && changeRequest.status !== 'archived';
    const type = closed ? 'change_request.closed' : 'change_request.updated';
    await recordChangeRequestEvent(trx, ctx, type, space.id, changeRequest.id, before);
  });
  return reload(ctx, space.id, changeRequest.id);
}

/**
 * Merges the change request into the live content: a three-way merge of its initial revision, the
 * live one and its own (409 naming what changed on both sides), written as a merge revision that
 * becomes live, the change request closed as merged and the search index rebuilt, in one
 * transaction. Returns the merge revision's id.
 */
export async function mergeChangeRequest(
  ctx: ServiceContext,
  spaceId: string,
  changeRequestKey: string,
): Promise<{ revision: string }> {
  const user = actingUser(ctx);
  const { space, changeRequest } = await authorizeChangeRequest(
    ctx.db,
    user.id,
    spaceId,
    changeRequestKey,
    'review',
    'merge change requests',
  );
  requireEditable(changeRequest);
  await checkMergeRules(ctx.db, space, changeRequest, user.id);
  const { live: ours, own: theirs, merged } = await mergeWithLive(ctx, space, changeRequest);
  const revision = await inTransaction(ctx.db, async (trx) => {
    const written = await writeRevision(trx, {
      spaceId: space.id,
      parents: [ours.id, theirs.id],
      type: 'merge',
      pages: merged.pages,
      files: merged.files,
      reusableContents: merged.reusableContents,
      mergedFrom: changeRequest.id,
      createdBy: user.id,
    });
    const now = nowIso();
    // Only if nothing was merged meanwhile (compare-and-set on the live revision and the status).
    const moved = await advanceLive(trx, space.id, ours.id, written.id, now);
    const closed =
      moved &&
      (await markMerged(trx, changeRequest.id, theirs.id, { by: user.id, at: now, revisionMerged: written.id }));
    if (!closed) throw conflict('the live content or the change request changed during the merge; retry');
    await recordChangeRequestEvent(trx, ctx, 'change_request.merged', space.id, changeRequest.id);
    await recordContentUpdated(trx, ctx, space, written.id, ours, merged);
    return written;
  });
  return { revision: revision.id };
}

/**
 * The three-way merge of the change request's base, the live revision and its own content, as the
 * merge and the update both make it; a conflict is a 409 naming what changed on both sides.
 */
async function mergeWithLive(ctx: ServiceContext, space: SpaceRow, changeRequest: ChangeRequestRow) {
  const [base, live, own] = await Promise.all([
    loadRevision(ctx.db, space, baseRevisionId(changeRequest)),
    loadRevision(ctx.db, space, space.revision_id),
    changeRequestSnapshot(ctx.db, space, changeRequest),
  ]);
  if (!base || !live) throw new Error(`revisions of change request ${changeRequest.id} are missing`);
  const merged = threeWayMerge(base, live, own);
  if (!merged.ok) throw conflictError(merged.conflicts);
  return { live, own, merged };
}

/** 409 naming every page, file and reusable content changed on both sides. */
function conflictError(conflicts: MergeConflict[]) {
  const list = conflicts.map((c) => `${c.kind} "${c.title}" (${c.id})`).join(', ');
  return conflict(`the change request conflicts with the live content; changed on both sides: ${list}`);
}

/**
 * Brings the change request up to date with the live content (`POST …/update`): the same three-way
 * merge as the merge (its base, the live revision, its own), written as an `update` revision of the
 * change request whose base becomes the live revision, in one transaction. A conflict is a 409
 * naming what changed on both sides, and nothing is written. Already up to date: nothing changes
 * and its current revision is returned.
 */
export async function bringChangeRequestUpToDate(
  ctx: ServiceContext,
  spaceId: string,
  changeRequestKey: string,
): Promise<{ revision: string }> {
  const user = actingUser(ctx);
  const { space, changeRequest } = await authorizeChangeRequest(
    ctx.db,
    user.id,
    spaceId,
    changeRequestKey,
    'edit',
    'update change requests',
  );
  requireEditable(changeRequest);
  if (baseRevisionId(changeRequest) === space.revision_id) return { revision: changeRequest.revision_id };
  // The same merge as the merge's (so that updating, then merging, merges what merging would have).
  const { live, own, merged } = await mergeWithLive(ctx, space, changeRequest);
  const revision = await inTransaction(ctx.db, async (trx) => {
    const { object: before } = await presentedChangeRequest(trx, ctx, space.id, changeRequest.id);
    const written = await writeRevision(trx, {
      spaceId: space.id,
      parents: [own.id, live.id],
      type: 'update',
      pages: merged.pages,
      files: merged.files,
      reusableContents: merged.reusableContents,
      createdBy: user.id,
    });
    const moved = await markUpdated(trx, changeRequest.id, own.id, {
      revisionId: written.id,
      ancestor: live.id,
      at: nowIso(),
    });
    if (!moved) throw conflict('the change request changed during the update; retry');
    await recordChangeRequestEvent(trx, ctx, 'change_request.updated', space.id, changeRequest.id, before);
    return written;
  });
  return { revision: revision.id };
}

/**
 * Requests reviews from members who can read the space (400 naming the first who cannot), and sets
 * the subject when given. Returns the reviewer rows of those users.
 */
export async function requestReviewers(
  ctx: ServiceContext,
  spaceId: string,
  changeRequestKey: string,
  input: { users: string[]; subject?: string },
): Promise<ReviewerRow[]> {
  const user = actingUser(ctx);
  const { space, changeRequest } = await authorizeChangeRequest(
    ctx.db,
    user.id,
    spaceId,
    changeRequestKey,
    'edit',
    'request reviews',
  );
  for (const [i, userId] of input.users.entries()) {
    const viewer = await loadViewer(ctx.db, space.organization_id, userId);
    if (!atLeast(viewer.roleOn({ type: 'space', ...space }), 'read')) {
      throw badRequest(`body/users/${i}: user ${userId} is not a member who can read this space`);
    }
  }
  return inTransaction(ctx.db, async (trx) => {
    if (input.subject !== undefined) await updateChangeRequestRow(trx, changeRequest.id, { subject: input.subject });
    const rows = await addReviewers(trx, changeRequest.id, input.users, user.id, changeRequest.revision_id);
    await recordReviewersEvent(trx, ctx, 'change_request.reviewers_requested', space.id, changeRequest.id, rows);
    return rows;
  });
}

/** Withdraws a review request (404 when that user was not requested). */
export async function removeRequestedReviewer(
  ctx: ServiceContext,
  spaceId: string,
  changeRequestKey: string,
  userId: string,
): Promise<void> {
  const { space, changeRequest } = await authorizeChangeRequest(
    ctx.db,
    actingUser(ctx).id,
    spaceId,
    changeRequestKey,
    'edit',
    'change requested reviewers',
  );
  const removed = await inTransaction(ctx.db, async (trx) => {
    const request = await removeReviewer(trx, changeRequest.id, userId);
    if (!request) return false;
    await recordReviewersEvent(trx, ctx, 'change_request.reviewer_removed', space.id, changeRequest.id, [request]);
    return true;
  });
  if (!removed) throw notFound(`user ${userId} is not a requested reviewer of this change request`);
}
