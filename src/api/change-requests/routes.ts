/**
 * Change requests: create and list in a space; get, update, merge one; edit its content in a batch;
 * its requested reviewers. Readers of the space read; editors create, edit and request reviews;
 * reviewers (and higher) merge.
 */
import { type Static, Type } from 'typebox';
import { applyBatch, type Change } from '../../content/batch.js';
import { threeWayMerge } from '../../content/merge.js';
import { loadRevision, type Snapshot, writeRevision } from '../../content/store.js';
import type { App } from '../../core/app.js';
import { caller } from '../../core/auth.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { PagedList } from '../../core/paging.js';
import { NoContent } from '../../core/schemas.js';
import { nowIso } from '../../core/time.js';
import type { ChangeRequestRow, SpaceRow } from '../../db/schema.js';
import { authorizeSpace } from '../../permissions/content.js';
import { loadViewer } from '../../permissions/resolver.js';
import { atLeast } from '../../permissions/roles.js';
import { checkMergeRules } from '../../reviews/merge-rules.js';
import { indexSpace } from '../../search/index.js';
import { MAX_FILE_BYTES } from '../../storage/files.js';
import { presentFile } from '../content/present.js';
import { authorizeChangeRequestOf } from './access.js';
import { ContentChangesBody, ContentChangesQuery, ContentUpdate } from './content-schemas.js';
import { changeRequestPath, presentChangeRequest, presentChangeRequests, presentReviewers } from './present.js';
import {
  addReviewers,
  advanceChangeRequest,
  createChangeRequest,
  findChangeRequest,
  listChangeRequests,
  listReviewers,
  removeReviewer,
  updateChangeRequest,
} from './repo.js';
import {
  ChangeRequest,
  ChangeRequestParams,
  CreateChangeRequestBody,
  ListChangeRequestsQuery,
  ListReviewersQuery,
  MergeResult,
  RequestedReviewer,
  RequestReviewersBody,
  ReviewerParams,
  SpaceParams,
  UpdateChangeRequestBody,
} from './schemas.js';

const tags = ['change-requests'];

/** 409 unless the change request can still change (not merged, not archived). */
export function requireEditable(changeRequest: ChangeRequestRow): void {
  if (changeRequest.status === 'merged') throw conflict(`change request ${changeRequest.number} is already merged`);
  if (changeRequest.status === 'archived') {
    throw conflict(`change request ${changeRequest.number} is archived; reopen it (status open) to change it`);
  }
}

/** The change request's current revision (its content). */
export async function changeRequestSnapshot(
  app: App,
  space: SpaceRow,
  changeRequest: ChangeRequestRow,
): Promise<Snapshot> {
  const snapshot = await loadRevision(app.db, space, changeRequest.revision_id);
  if (!snapshot)
    throw new Error(`revision ${changeRequest.revision_id} of change request ${changeRequest.id} is missing`);
  return snapshot;
}

export default async function changeRequestRoutes(app: App) {
  async function reload(space: SpaceRow, id: string) {
    const [fresh, cr] = await Promise.all([
      app.db.selectFrom('spaces').selectAll().where('id', '=', space.id).executeTakeFirstOrThrow(),
      findChangeRequest(app.db, space.id, id),
    ]);
    return presentChangeRequest(app.db, cr as ChangeRequestRow, fresh, app.urls);
  }

  app.post(
    '/spaces/:spaceId/change-requests',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'createChangeRequest',
        tags,
        params: SpaceParams,
        body: CreateChangeRequestBody,
        response: { 201: ChangeRequest },
      },
    },
    async (request, reply) => {
      const { user } = caller(request);
      const { row: space } = await authorizeSpace(
        app.db,
        user.id,
        request.params.spaceId,
        'edit',
        'create change requests',
      );
      const cr = await createChangeRequest(app.db, space, user.id, request.body.subject ?? '');
      reply.code(201).header('location', app.urls.api(changeRequestPath(space.id, cr.id)));
      return presentChangeRequest(app.db, cr, space, app.urls);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'listChangeRequestsForSpace',
        tags,
        params: SpaceParams,
        querystring: ListChangeRequestsQuery,
        response: { 200: PagedList(ChangeRequest) },
      },
    },
    async (request) => {
      const { row: space } = await authorizeSpace(
        app.db,
        caller(request).user.id,
        request.params.spaceId,
        'read',
        'read it',
      );
      const page = await listChangeRequests(app.db, space.id, request.query);
      return { ...page, items: await presentChangeRequests(app.db, page.items, space, app.urls) };
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getChangeRequestById',
        tags,
        params: ChangeRequestParams,
        response: { 200: ChangeRequest },
      },
    },
    async (request) => {
      const { space, changeRequest } = await authorizeChangeRequestOf(app.db, request, 'read', 'read it');
      return presentChangeRequest(app.db, changeRequest, space, app.urls);
    },
  );

  app.patch(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'updateChangeRequestById',
        tags,
        params: ChangeRequestParams,
        body: UpdateChangeRequestBody,
        response: { 200: ChangeRequest },
      },
    },
    async (request) => {
      const { space, changeRequest } = await authorizeChangeRequestOf(
        app.db,
        request,
        'edit',
        'update change requests',
      );
      if (request.body.status !== undefined && changeRequest.status === 'merged') {
        throw conflict(`change request ${changeRequest.number} is merged; its status cannot change`);
      }
      await updateChangeRequest(app.db, changeRequest.id, request.body);
      return reload(space, changeRequest.id);
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/merge',
    {
      config: { scope: 'change-request:merge' },
      schema: { operationId: 'mergeChangeRequest', tags, params: ChangeRequestParams, response: { 200: MergeResult } },
    },
    async (request) => {
      const { user } = caller(request);
      const { space, changeRequest } = await authorizeChangeRequestOf(
        app.db,
        request,
        'review',
        'merge change requests',
      );
      requireEditable(changeRequest);
      await checkMergeRules(app.db, space, changeRequest, user.id);
      const [base, ours, theirs] = await Promise.all([
        loadRevision(app.db, space, changeRequest.revision_initial),
        loadRevision(app.db, space, space.revision_id),
        changeRequestSnapshot(app, space, changeRequest),
      ]);
      if (!base || !ours) throw new Error(`revisions of change request ${changeRequest.id} are missing`);
      const merged = threeWayMerge(base, ours, theirs);
      if (!merged.ok) {
        const list = merged.conflicts.map((c) => `${c.kind} "${c.title}" (${c.id})`).join(', ');
        throw conflict(`the change request conflicts with the live content; changed on both sides: ${list}`);
      }
      const revision = await app.db.transaction().execute(async (trx) => {
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
        const moved = await trx
          .updateTable('spaces')
          .set({ revision_id: written.id, updated_at: now })
          .where('id', '=', space.id)
          .where('revision_id', '=', ours.id)
          .executeTakeFirst();
        const closed = await trx
          .updateTable('change_requests')
          .set({ status: 'merged', merged_by: user.id, merged_at: now, revision_merged: written.id, updated_at: now })
          .where('id', '=', changeRequest.id)
          .where('revision_id', '=', theirs.id)
          .where('status', 'in', ['open', 'draft'])
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0 || Number(closed.numUpdatedRows) === 0) {
          throw conflict('the live content or the change request changed during the merge; retry');
        }
        // The search index follows the live revision in the same transaction (AI answers read it).
        await indexSpace(trx, space.id);
        return written;
      });
      return { revision: revision.id, result: 'merge' as const };
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'updateChangeRequestContent',
        tags,
        params: ChangeRequestParams,
        querystring: ContentChangesQuery,
        body: ContentChangesBody,
        response: { 200: Type.Union([ChangeRequest, ContentUpdate]) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { space, changeRequest } = await authorizeChangeRequestOf(app.db, request, 'edit', 'edit change requests');
      requireEditable(changeRequest);
      const base = await changeRequestSnapshot(app, space, changeRequest);
      // Bodies and bytes are content-addressed, so they are stored outside the transaction (which
      // then stays short, without fetches); if the revision is not written they are unused rows.
      const applied = await applyBatch(app.db, base, request.body.changes as Change[], {
        allowPrivateFetch: app.config.fetchAllowPrivate,
        maxFileBytes: MAX_FILE_BYTES,
      });
      const result = await app.db.transaction().execute(async (trx) => {
        const written = await writeRevision(trx, {
          spaceId: space.id,
          parents: [base.id],
          type: 'edits',
          pages: applied.pages,
          files: applied.files,
          reusableContents: applied.reusableContents,
          createdBy: user.id,
        });
        await advanceChangeRequest(trx, changeRequest.id, base.id, written.id);
        return { applied, written };
      });
      const presented = await reload(space, changeRequest.id);
      if (request.query.compat !== false) return presented;
      const pageRef = (id: string) => ({
        object: 'page' as const,
        id,
        urls: { location: app.urls.api(`${changeRequestPath(space.id, changeRequest.id)}/content/page/${id}`) },
      });
      const view = { urls: app.urls, space, snapshot: result.written, metadata: true };
      const body: Static<typeof ContentUpdate> = {
        changeRequest: presented,
        changes: result.applied.changes.map((c) =>
          c.object === 'created_page' || c.object === 'updated_page' ? { ...c, page: pageRef(c.page) } : c,
        ),
        insertedFiles: result.applied.insertedFiles.map((f) => presentFile(view, f)),
      };
      return body;
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getRequestedReviewersByChangeRequestId',
        tags,
        params: ChangeRequestParams,
        querystring: ListReviewersQuery,
        response: { 200: PagedList(RequestedReviewer) },
      },
    },
    async (request) => {
      const { changeRequest } = await authorizeChangeRequestOf(app.db, request, 'read', 'read it');
      const page = await listReviewers(app.db, changeRequest.id, request.query);
      return { ...page, items: await presentReviewers(app.db, page.items, app.urls) };
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'requestReviewersForChangeRequest',
        tags,
        params: ChangeRequestParams,
        body: RequestReviewersBody,
        response: { 200: Type.Object({ users: Type.Array(RequestedReviewer) }) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { space, changeRequest } = await authorizeChangeRequestOf(app.db, request, 'edit', 'request reviews');
      // A reviewer must be a member who can read the space.
      for (const [i, userId] of request.body.users.entries()) {
        const viewer = await loadViewer(app.db, space.organization_id, userId);
        if (!atLeast(viewer.roleOn({ type: 'space', ...space }), 'read')) {
          throw badRequest(`body/users/${i}: user ${userId} is not a member who can read this space`);
        }
      }
      if (request.body.subject !== undefined) {
        await updateChangeRequest(app.db, changeRequest.id, { subject: request.body.subject });
      }
      const rows = await addReviewers(app.db, changeRequest.id, request.body.users, user.id, changeRequest.revision_id);
      return { users: await presentReviewers(app.db, rows, app.urls) };
    },
  );

  app.delete(
    '/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers/:userId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'removeRequestedReviewerFromChangeRequest',
        tags,
        params: ReviewerParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { changeRequest } = await authorizeChangeRequestOf(app.db, request, 'edit', 'change requested reviewers');
      if (!(await removeReviewer(app.db, changeRequest.id, request.params.userId))) {
        throw notFound(`user ${request.params.userId} is not a requested reviewer of this change request`);
      }
      return reply.code(204).send(null);
    },
  );
}
