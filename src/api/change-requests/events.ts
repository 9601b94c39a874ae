/**
 * Events of change requests and of the live content they merge into, recorded in the transaction of
 * the change (shared by this area's service and the content area's batch edits and imports).
 */
import { type Content, semanticChanges } from '../../content/semantic-changes.js';
import type { DbOrTrx, ServiceContext } from '../../core/service.js';
import { declareChangeRequestWrite } from '../../db/write-scope.js';
import { previousValues } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import type { EventType } from '../../events/types.js';
import { findSpaceRow } from '../../services/live.js';
import { presentChangeRequest, presentReviewers } from './present.js';
import { changeRequestExtras, findChangeRequest } from './repo.js';
import { type ReviewerRow, reviewerUsers } from './reviewers-repo.js';

/** The change request as the API presents it, read in `trx`. */
export async function presentedChangeRequest(trx: DbOrTrx, ctx: ServiceContext, spaceId: string, id: string) {
  const [space, row] = await Promise.all([findSpaceRow(trx, spaceId), findChangeRequest(trx, spaceId, id)]);
  if (!space || !row) throw new Error(`change request ${id} of space ${spaceId} is gone`);
  return { space, row, object: presentChangeRequest(row, space, await changeRequestExtras(trx, [row]), ctx.urls) };
}

/** Records `type` on the change request as it is now in `trx` (with the fields it changed when `before` is given). */
export async function recordChangeRequestEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: EventType,
  spaceId: string,
  id: string,
  before?: object,
  options: { sameStatus?: boolean } = {},
): Promise<void> {
  const { space, row, object } = await presentedChangeRequest(trx, ctx, spaceId, id);
  // The change is the change request's: the rest of the organization's answers stay (db/scope-parts.ts).
  declareChangeRequestWrite(space.organization_id, space.id, row.id, options);
  await recordEvent(trx, ctx, {
    type,
    organizationId: space.organization_id,
    target: { object: 'change-request', id: row.id, label: row.subject || `#${row.number}` },
    data: { object, ...(before ? { previous: previousValues(before, object) } : {}) },
  });
}

/**
 * Records a change of the requested reviewers: `change_request.reviewers_requested` with the
 * requests made (or renewed), `change_request.reviewer_removed` with the one withdrawn; the change
 * request as it is now comes with them.
 */
export async function recordReviewersEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: 'change_request.reviewers_requested' | 'change_request.reviewer_removed',
  spaceId: string,
  id: string,
  reviewers: ReviewerRow[],
): Promise<void> {
  const { space, row, object } = await presentedChangeRequest(trx, ctx, spaceId, id);
  declareChangeRequestWrite(space.organization_id, space.id, row.id);
  const users = presentReviewers(reviewers, await reviewerUsers(trx, reviewers), ctx.urls);
  await recordEvent(trx, ctx, {
    type,
    organizationId: space.organization_id,
    target: { object: 'change-request', id: row.id, label: row.subject || `#${row.number}` },
    data: { object: { object: 'change-request-reviewers', changeRequest: object, users } },
  });
}

/** Records `space.content.updated`: the new live revision and the pages it added, changed and removed. */
export async function recordContentUpdated(
  trx: DbOrTrx,
  ctx: ServiceContext,
  space: { id: string; organization_id: string; title: string },
  revision: string,
  before: Content,
  after: Content,
): Promise<void> {
  const pages = { added: [] as unknown[], changed: [] as unknown[], removed: [] as unknown[] };
  const seen = new Set<string>();
  for (const change of semanticChanges(before, after)) {
    if (change.type === 'page_created') pages.added.push(change.page);
    else if (change.type === 'page_deleted') pages.removed.push(change.page);
    else if ((change.type === 'page_edited' || change.type === 'page_moved') && !seen.has(change.page.id)) {
      seen.add(change.page.id);
      pages.changed.push(change.page);
    }
  }
  await recordEvent(trx, ctx, {
    type: 'space.content.updated',
    organizationId: space.organization_id,
    target: { object: 'space', id: space.id, label: space.title },
    data: { object: { object: 'space-content', space: space.id, revision, pages } },
  });
}
