/**
 * Events of change requests and of the live content they merge into, recorded in the transaction of
 * the change (shared by this area's service and the content area's batch edits and imports).
 */
import { type Content, semanticChanges } from '../../content/semantic-changes.js';
import type { DbOrTrx, ServiceContext } from '../../core/service.js';
import type { ChangeRequestRow, SpaceRow } from '../../db/schema.js';
import { declareChangeRequestWrite } from '../../db/write-scope.js';
import { previousValues } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import type { EventType } from '../../events/types.js';
import { loadChangeRequestForRead } from './lookup.js';
import { type ChangeRequestObject, presentChangeRequest, presentReviewers } from './present.js';
import { type ReviewerRow, reviewerUsers } from './reviewers-repo.js';

/** A change request as presented in `trx`, with the space and the row it was presented from. */
export interface PresentedChangeRequest {
  space: SpaceRow;
  row: ChangeRequestRow;
  object: ChangeRequestObject;
}

/**
 * The change request as the API presents it, read in `trx`: the space, the row, its creator and
 * merger and its open comments in one statement (./lookup.ts, as a single read loads them), where
 * separate reads were four on every change of a change request (an autosave's among them).
 */
export async function presentedChangeRequest(
  trx: DbOrTrx,
  ctx: ServiceContext,
  spaceId: string,
  id: string,
): Promise<PresentedChangeRequest> {
  const { space, changeRequest } = await loadChangeRequestForRead(trx, spaceId, id);
  if (!space || !changeRequest) throw new Error(`change request ${id} of space ${spaceId} is gone`);
  const { extras, ...row } = changeRequest;
  return { space, row, object: presentChangeRequest(row, space, extras, ctx.urls) };
}

/**
 * Records `type` on the change request as it is now in `trx` (with the fields it changed when
 * `before` is given); answers it as presented there (a caller may answer it after the commit).
 */
export async function recordChangeRequestEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: EventType,
  spaceId: string,
  id: string,
  before?: object,
  options: { sameStatus?: boolean } = {},
): Promise<PresentedChangeRequest> {
  const presented = await presentedChangeRequest(trx, ctx, spaceId, id);
  const { space, row, object } = presented;
  // The change is the change request's: the rest of the organization's answers stay (db/scope-parts.ts).
  declareChangeRequestWrite(space.organization_id, space.id, row.id, options);
  await recordEvent(trx, ctx, {
    type,
    organizationId: space.organization_id,
    target: { object: 'change-request', id: row.id, label: row.subject || `#${row.number}` },
    data: { object, ...(before ? { previous: previousValues(before, object) } : {}) },
  });
  return presented;
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
