/**
 * Changes of a change request's content: a batch edit (`POST …/content`) and imports. Each writes
 * one new revision of the change request, which moves to it only if nobody edited it meanwhile
 * (409 otherwise). Editors of the space make them, on a change request that is not merged or
 * archived (409).
 */
import { applyBatch, type BatchResult, type Change } from '../../content/batch.js';
import { runImport } from '../../content/importers/index.js';
import {
  flattenPages,
  loadRevision,
  rememberWrittenRevision,
  type Snapshot,
  writeRevision,
} from '../../content/store.js';
import { actingUser, inTransaction, type ServiceContext } from '../../core/service.js';
import type { ChangeRequestRow, SpaceRow } from '../../db/schema.js';
import { ApiError } from '../../lib/errors.js';
import { MAX_FILE_BYTES } from '../../storage/files.js';
import { uploadedFile } from '../../storage/uploads.js';
import { type PresentedChangeRequest, recordChangeRequestEvent } from '../change-requests/events.js';
import { authorizeChangeRequest, changeRequestSnapshot, requireEditable } from '../change-requests/open.js';
import type { ChangeRequestObject } from '../change-requests/present.js';
import { advanceChangeRequest, findChangeRequest } from '../change-requests/repo.js';

/** The editable change request and its current content, for a user with `edit` on the space. */
async function editable(ctx: ServiceContext, spaceId: string, changeRequestKey: string, action: string) {
  const access = await authorizeChangeRequest(ctx.db, actingUser(ctx).id, spaceId, changeRequestKey, 'edit', action);
  requireEditable(access.changeRequest);
  const base = await changeRequestSnapshot(ctx.db, access.space, access.changeRequest);
  return { space: access.space, changeRequest: access.changeRequest, base };
}

/**
 * The revisions an `If-Match` on a batch edit accepts: the change request's revision ids as strong
 * entity tags (`"<revision>"`), or `'*'` (any revision: the change request exists). Undefined: no
 * precondition.
 */
export type ExpectedRevision = '*' | string[] | undefined;

/** 412 naming the change request's current revision (also as its entity tag in `ETag`). */
function revisionChanged(current: string): ApiError {
  return new ApiError(
    412,
    `If-Match: the change request is at revision ${current} now (in the ETag header); read it again or send that revision`,
    { etag: `"${current}"` },
  );
}

function requireRevision(expected: ExpectedRevision, current: string): void {
  if (expected === undefined || expected === '*') return;
  if (!expected.includes(current)) throw revisionChanged(current);
}

/**
 * Writes the revision on top of `base` and moves the change request to it (compare-and-set). With
 * an `If-Match`, losing the compare-and-set means another edit landed after the caller's check: a
 * 412 with the revision that won, never a silent overwrite. (The compare-and-set is the check: a
 * read of the change request before it, in the transaction, would only refuse earlier what it
 * refuses, with the same 412.) Answers the revision and the change request as the event recorded
 * it, read in the transaction after the move.
 */
async function commit(
  ctx: ServiceContext,
  changeRequest: ChangeRequestRow,
  base: Snapshot,
  content: Pick<Snapshot, 'pages' | 'files' | 'reusableContents'>,
  expected: ExpectedRevision = undefined,
): Promise<{ revision: Snapshot; presented: PresentedChangeRequest }> {
  const committed = await inTransaction(ctx.db, async (trx) => {
    const written = await writeRevision(trx, {
      spaceId: changeRequest.space_id,
      parents: [base.id],
      type: 'edits',
      pages: content.pages,
      files: content.files,
      reusableContents: content.reusableContents,
      createdBy: actingUser(ctx).id,
    });
    try {
      await advanceChangeRequest(trx, changeRequest.id, base.id, written.id);
    } catch (error) {
      if (expected === undefined || !(error instanceof ApiError) || error.statusCode !== 409) throw error;
      const now = await findChangeRequest(ctx.db, changeRequest.space_id, changeRequest.id);
      throw revisionChanged(now?.revision_id ?? base.id);
    }
    // A new revision leaves the change request's status as it was (the space's counts stay).
    const presented = await recordChangeRequestEvent(
      trx,
      ctx,
      'change_request.updated',
      changeRequest.space_id,
      changeRequest.id,
      undefined,
      {
        sameStatus: true,
      },
    );
    return { revision: written, presented };
  });
  // Committed: the next edit (or read) of this revision finds it in memory, as read back.
  await rememberWrittenRevision(ctx.db, committed.revision);
  return committed;
}

/**
 * Whether a page is new in the change request: not in the live content it last started from (its
 * last update's, else its first). That revision is read once, and only when asked (a title change).
 */
function newInChangeRequest(ctx: ServiceContext, space: SpaceRow, changeRequest: ChangeRequestRow) {
  let live: Promise<Set<string>> | undefined;
  return async (pageId: string) => {
    live ??= loadRevision(ctx.db, space, changeRequest.revision_merged_ancestor ?? changeRequest.revision_initial).then(
      (snapshot) => new Set(flattenPages(snapshot?.pages ?? []).map((entry) => entry.page.id)),
    );
    return !(await live).has(pageId);
  };
}

export interface ContentEdit {
  /** The space as read after the edit (its live revision decides whether the change request is outdated). */
  space: SpaceRow;
  /** The change request after the edit. */
  changeRequest: ChangeRequestRow;
  /** It as the API presents it (and the event recorded it). */
  presented: ChangeRequestObject;
  applied: BatchResult;
  revision: Snapshot;
}

/**
 * Applies a batch of page, file and reusable-content changes to the change request's content.
 * `expectedRevision` (the request's `If-Match`) is checked before any work and again in the
 * transaction that moves the change request, so a mismatch writes nothing.
 */
export async function editChangeRequestContent(
  ctx: ServiceContext,
  spaceId: string,
  changeRequestKey: string,
  changes: Change[],
  options: { allowPrivateFetch: boolean; expectedRevision?: ExpectedRevision },
): Promise<ContentEdit> {
  const { space, changeRequest, base } = await editable(ctx, spaceId, changeRequestKey, 'edit change requests');
  requireRevision(options.expectedRevision, changeRequest.revision_id);
  // Bodies and bytes are content-addressed, so they are stored outside the transaction (which
  // then stays short, without fetches); if the revision is not written they are unused rows.
  const applied = await applyBatch(ctx.db, base, changes, {
    allowPrivateFetch: options.allowPrivateFetch,
    maxFileBytes: MAX_FILE_BYTES,
    readUpload: (key, at) => uploadedFile(ctx.db, space.organization_id, key, at),
    isNewPage: newInChangeRequest(ctx, space, changeRequest),
  });
  const { revision, presented } = await commit(ctx, changeRequest, base, applied, options.expectedRevision);
  // The change request as the event recorded it, read after the move in the same transaction: what
  // reading it again after the commit would answer, without four more statements.
  return { space: presented.space, changeRequest: presented.row, presented: presented.object, applied, revision };
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
  const { revision } = await commit(ctx, changeRequest, base, { ...outcome, reusableContents: base.reusableContents });
  return { revision: revision.id, importedResources: outcome.imported, totalResources: outcome.total };
}

/**
 * Replaces the change request's content whole with `content` (a translation run writes the
 * translated space this way): one new revision on top of its current one, for an editor of the space.
 */
export async function replaceChangeRequestContent(
  ctx: ServiceContext,
  spaceId: string,
  changeRequestKey: string,
  content: Pick<Snapshot, 'pages' | 'files' | 'reusableContents'>,
): Promise<Snapshot> {
  const { changeRequest, base } = await editable(ctx, spaceId, changeRequestKey, 'edit change requests');
  return (await commit(ctx, changeRequest, base, content)).revision;
}
