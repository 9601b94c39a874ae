/**
 * Who has which role on a space or a collection: invite users/teams, list direct user and team
 * grants, change or remove one, and the aggregate (every user with access and their effective role).
 * Each endpoint is declared on its own (the space and the collection variants share their handlers),
 * so that its path and operationId can be found in the code as written.
 */
import type { App } from '../../http/app.js';
import { ListQuery, PagedList } from '../../lib/paging.js';
import { NoContent } from '../../lib/schemas.js';
import { grantHandlers } from './handlers.js';
import {
  AggregateQuery,
  CollectionParams,
  CollectionTeamParams,
  CollectionUserParams,
  InviteBody,
  SpaceParams,
  SpaceTeamParams,
  SpaceUserParams,
  TeamPermissionEntry,
  UpdatePermissionBody,
  UserPermissionEntry,
} from './schemas.js';

const tags = ['permissions'];

export default async function grantRoutes(app: App) {
  const space = grantHandlers(app, 'space');

  app.post(
    '/spaces/:spaceId/permissions',
    {
      config: { scope: 'space:permissions:write' },
      schema: {
        operationId: 'inviteToSpace',
        tags,
        params: SpaceParams,
        body: InviteBody,
        response: { 204: NoContent },
      },
    },
    space.invite,
  );

  app.get(
    '/spaces/:spaceId/permissions/users',
    {
      config: { scope: 'space:permissions:read' },
      schema: {
        operationId: 'listUserPermissionsInSpace',
        tags,
        params: SpaceParams,
        querystring: ListQuery,
        response: { 200: PagedList(UserPermissionEntry) },
      },
    },
    space.listUsers,
  );

  app.get(
    '/spaces/:spaceId/permissions/teams',
    {
      config: { scope: 'space:permissions:read' },
      schema: {
        operationId: 'listTeamPermissionsInSpace',
        tags,
        params: SpaceParams,
        querystring: ListQuery,
        response: { 200: PagedList(TeamPermissionEntry) },
      },
    },
    space.listTeams,
  );

  app.get(
    '/spaces/:spaceId/permissions/aggregate',
    {
      config: { scope: 'space:permissions:read' },
      schema: {
        operationId: 'listPermissionsAggregateInSpace',
        tags,
        params: SpaceParams,
        querystring: AggregateQuery,
        response: { 200: PagedList(UserPermissionEntry) },
      },
    },
    space.aggregate,
  );

  app.patch(
    '/spaces/:spaceId/permissions/users/:userId',
    {
      config: { scope: 'space:permissions:write' },
      schema: {
        operationId: 'updateUserPermissionInSpace',
        tags,
        params: SpaceUserParams,
        body: UpdatePermissionBody,
        response: { 204: NoContent },
      },
    },
    space.update('user'),
  );

  app.delete(
    '/spaces/:spaceId/permissions/users/:userId',
    {
      config: { scope: 'space:permissions:write' },
      schema: { operationId: 'removeUserFromSpace', tags, params: SpaceUserParams, response: { 204: NoContent } },
    },
    space.remove('user'),
  );

  app.patch(
    '/spaces/:spaceId/permissions/teams/:teamId',
    {
      config: { scope: 'space:permissions:write' },
      schema: {
        operationId: 'updateTeamPermissionInSpace',
        tags,
        params: SpaceTeamParams,
        body: UpdatePermissionBody,
        response: { 204: NoContent },
      },
    },
    space.update('team'),
  );

  app.delete(
    '/spaces/:spaceId/permissions/teams/:teamId',
    {
      config: { scope: 'space:permissions:write' },
      schema: { operationId: 'removeTeamFromSpace', tags, params: SpaceTeamParams, response: { 204: NoContent } },
    },
    space.remove('team'),
  );

  const collection = grantHandlers(app, 'collection');

  app.post(
    '/collections/:collectionId/permissions',
    {
      config: { scope: 'space:permissions:write' },
      schema: {
        operationId: 'inviteToCollection',
        tags,
        params: CollectionParams,
        body: InviteBody,
        response: { 204: NoContent },
      },
    },
    collection.invite,
  );

  app.get(
    '/collections/:collectionId/permissions/users',
    {
      config: { scope: 'space:permissions:read' },
      schema: {
        operationId: 'listUserPermissionsInCollection',
        tags,
        params: CollectionParams,
        querystring: ListQuery,
        response: { 200: PagedList(UserPermissionEntry) },
      },
    },
    collection.listUsers,
  );

  app.get(
    '/collections/:collectionId/permissions/teams',
    {
      config: { scope: 'space:permissions:read' },
      schema: {
        operationId: 'listTeamPermissionsInCollection',
        tags,
        params: CollectionParams,
        querystring: ListQuery,
        response: { 200: PagedList(TeamPermissionEntry) },
      },
    },
    collection.listTeams,
  );

  app.get(
    '/collections/:collectionId/permissions/aggregate',
    {
      config: { scope: 'space:permissions:read' },
      schema: {
        operationId: 'listPermissionsAggregateInCollection',
        tags,
        params: CollectionParams,
        querystring: AggregateQuery,
        response: { 200: PagedList(UserPermissionEntry) },
      },
    },
    collection.aggregate,
  );

  app.patch(
    '/collections/:collectionId/permissions/users/:userId',
    {
      config: { scope: 'space:permissions:write' },
      schema: {
        operationId: 'updateUserPermissionInCollection',
        tags,
        params: CollectionUserParams,
        body: UpdatePermissionBody,
        response: { 204: NoContent },
      },
    },
    collection.update('user'),
  );

  app.delete(
    '/collections/:collectionId/permissions/users/:userId',
    {
      config: { scope: 'space:permissions:write' },
      schema: {
        operationId: 'removeUserFromCollection',
        tags,
        params: CollectionUserParams,
        response: { 204: NoContent },
      },
    },
    collection.remove('user'),
  );

  app.patch(
    '/collections/:collectionId/permissions/teams/:teamId',
    {
      config: { scope: 'space:permissions:write' },
      schema: {
        operationId: 'updateTeamPermissionInCollection',
        tags,
        params: CollectionTeamParams,
        body: UpdatePermissionBody,
        response: { 204: NoContent },
      },
    },
    collection.update('team'),
  );

  app.delete(
    '/collections/:collectionId/permissions/teams/:teamId',
    {
      config: { scope: 'space:permissions:write' },
      schema: {
        operationId: 'removeTeamFromCollection',
        tags,
        params: CollectionTeamParams,
        response: { 204: NoContent },
      },
    },
    collection.remove('team'),
  );
}
