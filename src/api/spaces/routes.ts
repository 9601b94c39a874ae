/** Spaces: create and list in an organization; get, update, soft-delete, restore and move one. */
import { Type } from 'typebox';
import { readsParts } from '../../core/answer-scope.js';
import { changeRequestCountsPart, spaceListPart, spacePart } from '../../db/scope-parts.js';
import { gitSyncOf } from '../../git/state.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { notFound } from '../../lib/errors.js';
import { ListQuery, PagedList, paginateArray } from '../../lib/paging.js';
import { NoContent, Params } from '../../lib/schemas.js';
import { authorizeLoadedSpace } from '../../permissions/content.js';
import { loadViewer } from '../../permissions/resolver.js';
import { atLeast } from '../../permissions/roles.js';
import { presentSpace, presentSpaces } from './present.js';
import {
  findSpaceForRead,
  findSpacesWithExtras,
  findSpaceToPresent,
  listSpaceNodes,
  type SpaceForRead,
} from './repo.js';
import { CreateSpaceBody, MoveBody, Space, SpaceParams, UpdateSpaceBody } from './schemas.js';
import { createSpace, deleteSpace, duplicateSpace, moveSpace, restoreSpace, updateSpace } from './service.js';

const tags = ['spaces'];

export default async function spaceRoutes(app: App) {
  /** The space as it is now (after a change), as `userId` sees it. */
  async function presentOne(spaceId: string, userId: string) {
    const found = await findSpaceToPresent(app.db, spaceId);
    if (!found) throw notFound(`space ${spaceId} not found`);
    const { row, counts, gitSync } = found;
    const viewer = await loadViewer(app.db, row.organization_id, userId);
    return presentSpace(row, viewer.roleOnSpace(row), counts, app.urls, gitSync);
  }

  app.post(
    '/orgs/:organizationId/spaces',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'createSpace',
        tags,
        params: Type.Object({ organizationId: Params.organizationId }),
        body: CreateSpaceBody,
        response: { 201: Space },
      },
    },
    async (request, reply) => {
      const space = await createSpace(serviceContext(app, request), request.params.organizationId, request.body);
      reply.code(201).header('location', app.urls.api(`/spaces/${space.id}`));
      return presentOne(space.id, caller(request).user.id);
    },
  );

  app.get(
    '/orgs/:organizationId/spaces',
    {
      config: { scope: 'space:read', cacheable: true },
      schema: {
        operationId: 'listSpacesInOrganizationById',
        tags,
        params: Type.Object({ organizationId: Params.organizationId }),
        querystring: ListQuery,
        response: { 200: PagedList(Space) },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const viewer = await loadViewer(app.db, organizationId, caller(request).user.id);
      if (!viewer.isMember) throw notFound(`organization ${organizationId} not found`);
      // Guests are listed the spaces granted to them; everyone sees only what they can read.
      const readable = (await listSpaceNodes(app.db, organizationId))
        .filter((s) => atLeast(viewer.roleOnSpace(s), 'read'))
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
      const page = paginateArray(readable, (s) => s.id, request.query);
      // The list of spaces, and the counts of change requests each listed space shows.
      readsParts(spaceListPart(organizationId), ...page.items.map((s) => changeRequestCountsPart(s.id)));
      const { rows, extras } = await findSpacesWithExtras(
        app.db,
        page.items.map((s) => s.id),
      );
      return { ...page, items: presentSpaces(rows, viewer, extras, app.urls) };
    },
  );

  app.get(
    '/spaces/:spaceId',
    {
      config: { scope: 'space:read', cacheable: true },
      schema: { operationId: 'getSpaceById', tags, params: SpaceParams, response: { 200: Space } },
    },
    async (request) => {
      const { user } = caller(request);
      const { spaceId } = request.params;
      readsParts(spacePart(spaceId), changeRequestCountsPart(spaceId)); // its row, its counts
      const found = await findSpaceForRead(app.db, spaceId);
      const { role } = await authorizeLoadedSpace(app.db, user.id, spaceId, found?.row, 'read', 'read it', {
        includeDeleted: true,
      });
      const { row, counts, hasGitSync } = found as SpaceForRead;
      // A deleted space stays visible to its admins, who can restore it.
      if (row.deleted_at && role !== 'admin') throw notFound(`space ${row.id} not found`);
      const gitSync = hasGitSync ? (await gitSyncOf(app.db, [row.id])).get(row.id) : undefined;
      return presentSpace(row, role, counts, app.urls, gitSync);
    },
  );

  app.patch(
    '/spaces/:spaceId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'updateSpaceById',
        tags,
        params: SpaceParams,
        body: UpdateSpaceBody,
        response: { 200: Space },
      },
    },
    async (request) => {
      const row = await updateSpace(serviceContext(app, request), request.params.spaceId, request.body);
      return presentOne(row.id, caller(request).user.id);
    },
  );

  app.delete(
    '/spaces/:spaceId',
    {
      config: { scope: 'space:write' },
      schema: { operationId: 'deleteSpaceById', tags, params: SpaceParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      await deleteSpace(serviceContext(app, request), request.params.spaceId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/spaces/:spaceId/duplicate',
    {
      config: { scope: 'space:write' },
      schema: { operationId: 'duplicateSpace', tags, params: SpaceParams, response: { 201: Space } },
    },
    async (request, reply) => {
      const copy = await duplicateSpace(serviceContext(app, request), request.params.spaceId);
      reply.code(201).header('location', app.urls.api(`/spaces/${copy.id}`));
      return presentOne(copy.id, caller(request).user.id);
    },
  );

  app.post(
    '/spaces/:spaceId/restore',
    {
      config: { scope: 'space:write' },
      schema: { operationId: 'restoreSpace', tags, params: SpaceParams, response: { 200: Space } },
    },
    async (request) => {
      const row = await restoreSpace(serviceContext(app, request), request.params.spaceId);
      return presentOne(row.id, caller(request).user.id);
    },
  );

  app.post(
    '/spaces/:spaceId/move',
    {
      config: { scope: 'space:write' },
      schema: { operationId: 'moveSpace', tags, params: SpaceParams, body: MoveBody, response: { 200: Space } },
    },
    async (request) => {
      const row = await moveSpace(serviceContext(app, request), request.params.spaceId, request.body);
      return presentOne(row.id, caller(request).user.id);
    },
  );
}
