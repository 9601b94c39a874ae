/**
 * Change requests: create and list in a space; get, update, merge one; its requested reviewers.
 * Readers of the space read; editors create and request reviews; reviewers (and higher) merge. The
 * changes go through ./service.ts; the content of a change request is the content area's.
 */
import { Type } from 'typebox';
import { readsParts } from '../../core/answer-scope.js';
import type { SpaceRow } from '../../db/schema.js';
import { changeRequestListPart, changeRequestPart, spaceUnshownPart } from '../../db/scope-parts.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { notFound } from '../../lib/errors.js';
import { PagedList } from '../../lib/paging.js';
import { NoContent } from '../../lib/schemas.js';
import { authorizeSpace } from '../../permissions/content.js';
import { loadViewer } from '../../permissions/resolver.js';
import { atLeast } from '../../permissions/roles.js';
import { loadChangeRequestForRead } from './lookup.js';
import { authorizeChangeRequest } from './open.js';
import {
  listOrganizationChangeRequests,
  listOrganizationSpaceNodes,
  siteSpaceIds,
  spaceRowsByIds,
} from './org-repo.js';
import { changeRequestPath, presentChangeRequest, presentChangeRequests, presentReviewers } from './present.js';
import { changeRequestExtras, listChangeRequestsForRead } from './repo.js';
import { listReviewers, reviewerUsers } from './reviewers-repo.js';
import {
  ChangeRequest,
  ChangeRequestParams,
  CreateChangeRequestBody,
  ListChangeRequestsQuery,
  ListOrgChangeRequestsQuery,
  ListReviewersQuery,
  MergeResult,
  RequestedReviewer,
  RequestReviewersBody,
  ReviewerParams,
  SpaceParams,
  UpdateChangeRequestBody,
  UpdateResult,
} from './schemas.js';
import {
  bringChangeRequestUpToDate,
  type ChangeRequestState,
  createChangeRequest,
  mergeChangeRequest,
  removeRequestedReviewer,
  requestReviewers,
  updateChangeRequest,
} from './service.js';

const tags = ['change-requests'];

export default async function changeRequestRoutes(app: App) {
  async function present({ space, changeRequest }: ChangeRequestState) {
    return presentChangeRequest(changeRequest, space, await changeRequestExtras(app.db, [changeRequest]), app.urls);
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
      const created = await createChangeRequest(serviceContext(app, request), request.params.spaceId, {
        subject: request.body.subject,
      });
      const { space, changeRequest } = created;
      reply.code(201).header('location', app.urls.api(changeRequestPath(space.id, changeRequest.id)));
      return present(created);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests',
    {
      config: { scope: 'space:read', cacheable: true },
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
      readsParts(spaceUnshownPart(space.organization_id), changeRequestListPart(space.id)); // db/scope-parts.ts
      const { page, extras } = await listChangeRequestsForRead(app.db, space.id, request.query);
      return { ...page, items: presentChangeRequests(page.items, space, extras, app.urls) };
    },
  );

  app.get(
    '/orgs/:organizationId/change-requests',
    {
      config: { scope: 'space:read', cacheable: true },
      schema: {
        operationId: 'listChangeRequestsForOrganization',
        description:
          'Change requests of the spaces of the organization the caller may read, most recently updated (or created) first.',
        tags,
        params: Type.Object({ organizationId: Type.String({ minLength: 1 }) }),
        querystring: ListOrgChangeRequestsQuery,
        response: { 200: PagedList(ChangeRequest) },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const query = request.query;
      const viewer = await loadViewer(app.db, organizationId, caller(request).user.id);
      if (!viewer.isMember) throw notFound(`organization ${organizationId} not found`);
      const site = query.site ? await siteSpaceIds(app.db, organizationId, query.site) : undefined;
      const spaceIds = (await listOrganizationSpaceNodes(app.db, organizationId))
        .filter((s) => atLeast(viewer.roleOnSpace(s), 'read'))
        .map((s) => s.id)
        .filter((id) => (query.space === undefined || id === query.space) && (!site || site.has(id)));
      const page = await listOrganizationChangeRequests(app.db, spaceIds, query);
      const [spaces, extras] = await Promise.all([
        spaceRowsByIds(app.db, [...new Set(page.items.map((r) => r.space_id))]),
        changeRequestExtras(app.db, page.items),
      ]);
      const items = page.items.map((row) =>
        presentChangeRequest(row, spaces.get(row.space_id) as SpaceRow, extras, app.urls),
      );
      return { ...page, items };
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      config: { scope: 'space:read', cacheable: true },
      schema: {
        operationId: 'getChangeRequestById',
        tags,
        params: ChangeRequestParams,
        response: { 200: ChangeRequest },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { space, changeRequest } = await authorizeChangeRequest(
        app.db,
        caller(request).user.id,
        spaceId,
        changeRequestId,
        'read',
        'read it',
        loadChangeRequestForRead,
      );
      readsParts(spaceUnshownPart(space.organization_id), changeRequestPart(changeRequest.id)); // db/scope-parts.ts
      return presentChangeRequest(changeRequest, space, changeRequest.extras, app.urls);
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
      const { spaceId, changeRequestId } = request.params;
      return present(await updateChangeRequest(serviceContext(app, request), spaceId, changeRequestId, request.body));
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/merge',
    {
      config: { scope: 'change-request:merge' },
      schema: { operationId: 'mergeChangeRequest', tags, params: ChangeRequestParams, response: { 200: MergeResult } },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { revision } = await mergeChangeRequest(serviceContext(app, request), spaceId, changeRequestId);
      return { revision, result: 'merge' as const };
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/update',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'updateChangeRequest',
        description:
          'Brings the change request up to date with the live content (a three-way merge, as the merge does). A conflict is a 409 naming the pages, files and reusable contents changed on both sides; nothing is then changed.',
        tags,
        params: ChangeRequestParams,
        response: { 200: UpdateResult },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { revision } = await bringChangeRequestUpToDate(serviceContext(app, request), spaceId, changeRequestId);
      return { revision, result: 'update' as const };
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
      const { spaceId, changeRequestId } = request.params;
      const { changeRequest } = await authorizeChangeRequest(
        app.db,
        caller(request).user.id,
        spaceId,
        changeRequestId,
        'read',
        'read it',
      );
      const page = await listReviewers(app.db, changeRequest.id, request.query);
      return { ...page, items: presentReviewers(page.items, await reviewerUsers(app.db, page.items), app.urls) };
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
      const { spaceId, changeRequestId } = request.params;
      const rows = await requestReviewers(serviceContext(app, request), spaceId, changeRequestId, request.body);
      return { users: presentReviewers(rows, await reviewerUsers(app.db, rows), app.urls) };
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
      const { spaceId, changeRequestId, userId } = request.params;
      await removeRequestedReviewer(serviceContext(app, request), spaceId, changeRequestId, userId);
      return reply.code(204).send(null);
    },
  );
}
