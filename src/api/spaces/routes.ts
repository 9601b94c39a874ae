/** Spaces: create and list in an organization; get, update, soft-delete, restore and move one. */
import { Type } from 'typebox';
import { placeItem, positionAtEnd } from '../../content-tree/order.js';
import type { App } from '../../core/app.js';
import { caller } from '../../core/auth.js';
import { badRequest, notFound } from '../../core/errors.js';
import { PagedList, paginateArray } from '../../core/paging.js';
import { NoContent, Params } from '../../core/schemas.js';
import { nowIso } from '../../core/time.js';
import { authorizeSpace, requireCreateIn } from '../../permissions/content.js';
import { loadViewer } from '../../permissions/resolver.js';
import { atLeast } from '../../permissions/roles.js';
import { presentSpaces } from './present.js';
import { createSpace, findSpace, findSpacesByIds, listSpaceNodes, setSpaceDeleted, updateSpace } from './repo.js';
import { CreateSpaceBody, ListSpacesQuery, MoveBody, Space, SpaceParams, UpdateSpaceBody } from './schemas.js';

const tags = ['spaces'];

export default async function spaceRoutes(app: App) {
  async function presentOne(spaceId: string, userId: string) {
    const space = await findSpace(app.db, spaceId);
    if (!space) throw notFound(`space ${spaceId} not found`);
    const viewer = await loadViewer(app.db, space.organization_id, userId);
    const [presented] = await presentSpaces(app.db, [space], viewer, app.urls);
    return presented as NonNullable<typeof presented>;
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
      const { user } = caller(request);
      const { organizationId } = request.params;
      const viewer = await loadViewer(app.db, organizationId, user.id);
      await requireCreateIn(app.db, viewer, request.body.parent);
      if (request.body.visibility === 'in-collection' && !request.body.parent) {
        throw badRequest('body/visibility in-collection needs a parent collection');
      }
      const space = await createSpace(app.db, organizationId, request.body);
      reply.code(201).header('location', app.urls.api(`/spaces/${space.id}`));
      return presentOne(space.id, user.id);
    },
  );

  app.get(
    '/orgs/:organizationId/spaces',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'listSpacesInOrganizationById',
        tags,
        params: Type.Object({ organizationId: Params.organizationId }),
        querystring: ListSpacesQuery,
        response: { 200: PagedList(Space) },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const viewer = await loadViewer(app.db, organizationId, caller(request).user.id);
      if (!viewer.isMember) throw notFound(`organization ${organizationId} not found`);
      // Guests are listed the spaces granted to them; everyone sees only what they can read.
      const readable = (await listSpaceNodes(app.db, organizationId))
        .filter((s) => atLeast(viewer.roleOn({ type: 'space', ...s }), 'read'))
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
      const page = paginateArray(readable, (s) => s.id, request.query);
      const rows = await findSpacesByIds(
        app.db,
        page.items.map((s) => s.id),
      );
      return { ...page, items: await presentSpaces(app.db, rows, viewer, app.urls) };
    },
  );

  app.get(
    '/spaces/:spaceId',
    {
      config: { scope: 'space:read' },
      schema: { operationId: 'getSpaceById', tags, params: SpaceParams, response: { 200: Space } },
    },
    async (request) => {
      const { user } = caller(request);
      const { row, role } = await authorizeSpace(app.db, user.id, request.params.spaceId, 'read', 'read it', {
        includeDeleted: true,
      });
      // A deleted space stays visible to its admins, who can restore it.
      if (row.deleted_at && role !== 'admin') throw notFound(`space ${row.id} not found`);
      return presentOne(row.id, user.id);
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
      const { user } = caller(request);
      const { row } = await authorizeSpace(app.db, user.id, request.params.spaceId, 'admin', 'update it');
      if (request.body.visibility === 'in-collection' && !row.parent_id) {
        throw badRequest('body/visibility in-collection needs the space to be in a collection');
      }
      await updateSpace(app.db, row.id, request.body);
      return presentOne(row.id, user.id);
    },
  );

  app.delete(
    '/spaces/:spaceId',
    {
      config: { scope: 'space:write' },
      schema: { operationId: 'deleteSpaceById', tags, params: SpaceParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { row } = await authorizeSpace(
        app.db,
        caller(request).user.id,
        request.params.spaceId,
        'admin',
        'delete it',
        { includeDeleted: true },
      );
      // Deleting a deleted space is a no-op, as the official API documents.
      if (!row.deleted_at) await setSpaceDeleted(app.db, row.id, true);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/spaces/:spaceId/restore',
    {
      config: { scope: 'space:write' },
      schema: { operationId: 'restoreSpace', tags, params: SpaceParams, response: { 200: Space } },
    },
    async (request) => {
      const { user } = caller(request);
      const { row } = await authorizeSpace(app.db, user.id, request.params.spaceId, 'admin', 'restore it', {
        includeDeleted: true,
      });
      if (row.deleted_at) {
        await app.db.transaction().execute(async (trx) => {
          // The parent may have been deleted meanwhile: then the space comes back at the top level.
          const parent = row.parent_id
            ? await trx.selectFrom('collections').select('id').where('id', '=', row.parent_id).executeTakeFirst()
            : undefined;
          const parentId = parent ? parent.id : null;
          const position = await positionAtEnd(trx, row.organization_id, parentId);
          await trx
            .updateTable('spaces')
            .set({ deleted_at: null, parent_id: parentId, position, updated_at: nowIso() })
            .where('id', '=', row.id)
            .execute();
        });
      }
      return presentOne(row.id, user.id);
    },
  );

  app.post(
    '/spaces/:spaceId/move',
    {
      config: { scope: 'space:write' },
      schema: { operationId: 'moveSpace', tags, params: SpaceParams, body: MoveBody, response: { 200: Space } },
    },
    async (request) => {
      const { user } = caller(request);
      const { row, viewer } = await authorizeSpace(app.db, user.id, request.params.spaceId, 'admin', 'move it');
      const parentId = request.body.parent === undefined ? row.parent_id : request.body.parent;
      if (parentId !== row.parent_id) await requireCreateIn(app.db, viewer, parentId);
      await app.db.transaction().execute(async (trx) => {
        const visibility = !parentId && row.visibility === 'in-collection' ? 'private' : row.visibility;
        await trx
          .updateTable('spaces')
          .set({ parent_id: parentId, visibility, updated_at: nowIso() })
          .where('id', '=', row.id)
          .execute();
        await placeItem(trx, row.organization_id, parentId, { type: 'space', id: row.id }, request.body.position);
      });
      return presentOne(row.id, user.id);
    },
  );
}
