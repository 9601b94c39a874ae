/**
 * Changes of a change request's content: a batch edit (`POST …/content`) and imports. Each writes
 * one new revision of the change request, which moves to it only if nobody edited it meanwhile
 * (409 otherwise). Editors of the space make them, on a change request that is not merged or
 * archived (409).
 */
import { applyBatch, type BatchResult, type Change } from '../../content/batch.js';
import { runImport } from '../../content/importers/index.js';
import { type Snapshot, writeRevision } from '../../content/store.js';
import { actingUser, inTransaction, type ServiceContext } from '../../core/service.js';
import type { ChangeRequestRow, SpaceRow } from '../../db/schema.js';
import { findSpaceRow } from '../../services/live.js';
import { MAX_FILE_BYTES } from '../../storage/files.js';
import { recordChangeRequestEvent } from '../change-requests/events.js';
import { authorizeChangeRequest, changeRequestSnapshot, requireEditable } from '../change-requests/open.js';
import { advanceChangeRequest, findChangeRequest } from '../change-requests/repo.js';

/** The editable change request and its current content, for a user with `edit` on the space. */
async function editable(ctx: ServiceContext, spaceId: string, changeRequestKey: string, action: string) {
  const access = await authorizeChangeRequest(ctx.db, actingUser(ctx).id, spaceId, changeRequestKey, 'edit', action);
  requireEditable(access.changeRequest);
  const base = await changeRequestSnapshot(ctx.db, access.space, access.changeRequest);
  return { space: access.space, changeRequest: access.changeRequest, base };
}

/** Writes the revision on top of `base` and moves the change request to it (compare-and-set). */
function commit(
  ctx: ServiceContext,
  changeRequest: ChangeRequestRow,
  base: Snapshot,
  content: Pick<Snapshot, 'pages' | 'files' | 'reusableContents'>,
): Promise<Snapshot> {
  return inTransaction(ctx.db, async (trx) => {
    const written = await writeRevision(trx, {
      spaceId: changeRequest.space_id,
      parents: [base.id],
      type: 'edits',
      pages: content.pages,
      files: content.files,
      reusableContents: content.reusableContents,
      createdBy: actingUser(ctx).id,
    });
    await advanceChangeRequest(trx, changeRequest.id, base.id, written.id);
    await recordChangeRequestEvent(trx, ctx, 'change_request.updated', changeRequest.space_id, changeRequest.id);
    return written;
  });
}

export interface ContentEdit {
  space: SpaceRow;
  /** The change request after the edit. */
  changeRequest: ChangeRequestRow;
  applied: BatchResult;
  revision: Snapshot;
}

/** Applies a batch of page, file and reusable-content changes to the change request's content. */
export async function editChangeRequestContent(
  ctx: ServiceContext,
  spaceId: string,
  changeRequestKey: string,
  changes: Change[],
  options: { allowPrivateFetch: boolean },
): Promise<ContentEdit> {
  const { space, changeRequest, base } = await editable(ctx, spaceId, changeRequestKey, 'edit change requests');
  // Bodies and bytes are content-addressed, so they are stored outside the transaction (which
  // then stays short, without fetches); if the revision is not written they are unused rows.
  const applied = await applyBatch(ctx.db, base, changes, {
    allowPrivateFetch: options.allowPrivateFetch,
    maxFileBytes: MAX_FILE_BYTES,
  });
  const revision = await commit(ctx, changeRequest, base, applied);
  // As stored now: the space's live revision decides whether the change request is outdated.
  const [freshSpace, fresh] = await Promise.all([
    findSpaceRow(ctx.db, space.id),
    findChangeRequest(ctx.db, space.id, changeRequest.id),
  ]);
  return { space: freshSpace ?? space, changeRequest: fresh ?? changeRequest, applied, revision };
}

/**
 * Imports Markdown, HTML, .docx, a .zip archive or a website into the change request (under
 * `pageId` when given). Sources are fetched and converted before the (short) transaction.
 */
export async function importIntoChangeRequest(
  ctx: ServiceContext,
  spaceId: string,
  changeRequestKey: string,
  input: { source: string; url: string; pageId?: string },
  options: { allowPrivate: boolean },
): Promise<{ revision: string; importedResources: number; totalResources: number }> {
  const { changeRequest, base } = await editable(ctx, spaceId, changeRequestKey, 'import content');
  const outcome = await runImport(ctx.db, base, input, options);
  const revision = await commit(ctx, changeRequest, base, { ...outcome, reusableContents: base.reusableContents });
  return { revision: revision.id, importedResources: outcome.imported, totalResources: outcome.total };
}
