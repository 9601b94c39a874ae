/** Collections: create and list in an organization; get, update, delete, list spaces, move, transfer. */

import { treeOrder } from '../../content-tree/order.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { notFound } from '../../lib/errors.js';
import { ListQuery, PagedList, paginateArray } from '../../lib/paging.js';
import { NoContent } from '../../lib/schemas.js';
import { authorizeCollection } from '../../permissions/content.js';
import { loadViewer } from '../../permissions/resolver.js';
import { atLeast } from '../../permissions/roles.js';
import { presentSpaces } from '../spaces/present.js';
import { findSpacesByIds, listSpaceNodes, spaceExtras } from '../spaces/repo.js';
import { Space } from '../spaces/schemas.js';
import { presentCollection } from './present.js';
import { findCollection, listCollections } from './repo.js';
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
import { createCollection, deleteCollection, moveCollection, transferCollection, updateCollection } from './service.js';

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
      const ctx = serviceContext(app, request);
      const row = await createCollection(ctx, request.params.organizationId, request.body);
      reply.code(201).header('location', app.urls.api(`/collections/${row.id}`));
      return presentOne(row.id, caller(request).user.id);
    },
  );

  app.get(
    '/orgs/:organizationId/collections',
    {
      config: { scope: 'space:read', cacheable: true },
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
      config: { scope: 'space:read', cacheable: true },
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
      const row = await updateCollection(serviceContext(app, request), request.params.collectionId, request.body);
      return presentOne(row.id, caller(request).user.id);
    },
  );

  app.delete(
    '/collections/:collectionId',
    {
      config: { scope: 'space:write' },
      schema: { operationId: 'deleteCollectionById', tags, params: CollectionParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      await deleteCollection(serviceContext(app, request), request.params.collectionId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/collections/:collectionId/spaces',
    {
      config: { scope: 'space:read', cacheable: true },
      schema: {
        operationId: 'listSpacesInCollectionById',
        tags,
        params: CollectionParams,
        querystring: ListQuery,
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
      return { ...page, items: presentSpaces(rows, viewer, await spaceExtras(app.db, rows), app.urls) };
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
      const row = await moveCollection(serviceContext(app, request), request.params.collectionId, request.body);
      return presentOne(row.id, caller(request).user.id);
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
      const ctx = serviceContext(app, request);
      const row = await transferCollection(ctx, request.params.collectionId, request.body.organization);
      return presentOne(row.id, caller(request).user.id);
    },
  );
}
