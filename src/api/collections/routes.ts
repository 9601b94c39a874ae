/** Collections: create and list in an organization; get, update, delete, list spaces, move, transfer. */

import { placeItem } from '../../content-tree/order.js';
import type { App } from '../../core/app.js';
import { caller } from '../../core/auth.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { PagedList, paginateArray } from '../../core/paging.js';
import { NoContent } from '../../core/schemas.js';
import { nowIso } from '../../core/time.js';
import { authorizeCollection, requireCreateIn } from '../../permissions/content.js';
import { requireOrgMember, requireOrgRole } from '../../permissions/organization.js';
import { loadViewer, type Viewer } from '../../permissions/resolver.js';
import { atLeast } from '../../permissions/roles.js';
import { presentSpaces } from '../spaces/present.js';
import { findSpacesByIds, listSpaceNodes } from '../spaces/repo.js';
import { ListSpacesQuery, Space } from '../spaces/schemas.js';
import { presentCollection } from './present.js';
import {
  createCollection,
  deleteCollectionTree,
  findCollection,
  listCollections,
  subtree,
  transferCollectionTree,
  treeOrder,
  updateCollection,
} from './repo.js';
import {
  Collection,
  CollectionParams,
  CreateCollectionBody,
  ListCollectionsQuery,
  MoveCollectionBody,
  OrgParams,
  TransferBody,
  UpdateCollectionBody,
} from './schemas.js';

const tags = ['collections'];

export default async function collectionRoutes(app: App) {
  async function presentOne(collectionId: string, userId: string) {
    const row = await findCollection(app.db, collectionId);
    if (!row) throw notFound(`collection ${collectionId} not found`);
    const viewer = await loadViewer(app.db, row.organization_id, userId);
    return presentCollection(row, viewer.roleOnCollection(row.id), app.urls);
  }

  app.post(
    '/orgs/:organizationId/collections',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'createCollection',
        tags,
        params: OrgParams,
        body: CreateCollectionBody,
        response: { 201: Collection },
      },
    },
    async (request, reply) => {
      const { user } = caller(request);
      const viewer = await loadViewer(app.db, request.params.organizationId, user.id);
      await requireCreateIn(app.db, viewer, request.body.parent);
      const row = await createCollection(app.db, request.params.organizationId, request.body);
      reply.code(201).header('location', app.urls.api(`/collections/${row.id}`));
      return presentOne(row.id, user.id);
    },
  );

  app.get(
    '/orgs/:organizationId/collections',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'listCollectionsInOrganizationById',
        tags,
        params: OrgParams,
        querystring: ListCollectionsQuery,
        response: { 200: PagedList(Collection) },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const viewer = await loadViewer(app.db, organizationId, caller(request).user.id);
      if (!viewer.isMember) throw notFound(`organization ${organizationId} not found`);
      const ordered = treeOrder(await listCollections(app.db, organizationId), request.query.nested !== false);
      const readable = ordered.filter((c) => atLeast(viewer.roleOnCollection(c.id), 'read'));
      const page = paginateArray(readable, (c) => c.id, request.query);
      return { ...page, items: page.items.map((c) => presentCollection(c, viewer.roleOnCollection(c.id), app.urls)) };
    },
  );

  app.get(
    '/collections/:collectionId',
    {
      config: { scope: 'space:read' },
      schema: { operationId: 'getCollectionById', tags, params: CollectionParams, response: { 200: Collection } },
    },
    async (request) => {
      const { row, role } = await authorizeCollection(
        app.db,
        caller(request).user.id,
        request.params.collectionId,
        'read',
        'read it',
      );
      return presentCollection(row, role, app.urls);
    },
  );

  app.patch(
    '/collections/:collectionId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'updateCollectionById',
        tags,
        params: CollectionParams,
        body: UpdateCollectionBody,
        response: { 200: Collection },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { row } = await authorizeCollection(app.db, user.id, request.params.collectionId, 'admin', 'update it');
      await updateCollection(app.db, row.id, request.body);
      return presentOne(row.id, user.id);
    },
  );

  app.delete(
    '/collections/:collectionId',
    {
      config: { scope: 'space:write' },
      schema: { operationId: 'deleteCollectionById', tags, params: CollectionParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { row } = await authorizeCollection(
        app.db,
        caller(request).user.id,
        request.params.collectionId,
        'admin',
        'delete it',
      );
      await deleteCollectionTree(app.db, subtree(await listCollections(app.db, row.organization_id), row.id));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/collections/:collectionId/spaces',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'listSpacesInCollectionById',
        tags,
        params: CollectionParams,
        querystring: ListSpacesQuery,
        response: { 200: PagedList(Space) },
      },
    },
    async (request) => {
      const { row, viewer } = await authorizeCollection(
        app.db,
        caller(request).user.id,
        request.params.collectionId,
        'read',
        'read it',
      );
      const readable = (await listSpaceNodes(app.db, row.organization_id, row.id))
        .filter((s) => atLeast(viewer.roleOn({ type: 'space', ...s }), 'read'))
        .sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
      const page = paginateArray(readable, (s) => s.id, request.query);
      const rows = await findSpacesByIds(
        app.db,
        page.items.map((s) => s.id),
      );
      return { ...page, items: await presentSpaces(app.db, rows, viewer, app.urls) };
    },
  );

  app.post(
    '/collections/:collectionId/move',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'moveCollection',
        tags,
        params: CollectionParams,
        body: MoveCollectionBody,
        response: { 200: Collection },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { row, viewer } = await authorizeCollection(
        app.db,
        user.id,
        request.params.collectionId,
        'admin',
        'move it',
      );
      const parentId = request.body.parent === undefined ? row.parent_id : request.body.parent;
      if (parentId !== row.parent_id) {
        await requireCreateIn(app.db, viewer, parentId);
        const below = subtree(await listCollections(app.db, row.organization_id), row.id);
        if (parentId && below.includes(parentId)) {
          throw badRequest('body/parent: a collection cannot move under itself or one of its descendants');
        }
      }
      await app.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('collections')
          .set({ parent_id: parentId, updated_at: nowIso() })
          .where('id', '=', row.id)
          .execute();
        await placeItem(trx, row.organization_id, parentId, { type: 'collection', id: row.id }, request.body.position);
      });
      return presentOne(row.id, user.id);
    },
  );

  app.post(
    '/collections/:collectionId/transfer',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'transferCollection',
        tags,
        params: CollectionParams,
        body: TransferBody,
        response: { 200: Collection },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { row } = await authorizeCollection(app.db, user.id, request.params.collectionId, 'admin', 'transfer it');
      const target = request.body.organization;
      const source: Viewer = await loadViewer(app.db, row.organization_id, user.id);
      requireOrgRole(
        { organizationId: row.organization_id, userId: user.id, role: source.orgRole, disabled: false },
        'admin',
        'transfer collections out of it',
      );
      const targetMembership = await requireOrgMember(app.db, target, user.id);
      requireOrgRole(targetMembership, 'admin', 'transfer collections into it');
      if (target === row.organization_id) throw conflict('the collection already belongs to that organization');
      const ids = subtree(await listCollections(app.db, row.organization_id), row.id);
      await transferCollectionTree(app.db, row.id, ids, target);
      return presentOne(row.id, user.id);
    },
  );
}
