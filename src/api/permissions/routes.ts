/**
 * Who has which role on a space or a collection: invite users/teams, list direct user and team
 * grants, change or remove one, and the aggregate (every user with access and their effective role).
 * The same routes serve `/spaces/{spaceId}/permissions…` and `/collections/{collectionId}/permissions…`.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../core/app.js';
import { caller } from '../../core/auth.js';
import { badRequest, notFound } from '../../core/errors.js';
import { ListQuery, PagedList, paginateArray } from '../../core/paging.js';
import { NoContent, type Role } from '../../core/schemas.js';
import type { Db } from '../../db/database.js';
import { authorizeCollection, authorizeSpace } from '../../permissions/content.js';
import { aggregateRoles, type NodeType } from '../../permissions/resolver.js';
import { presentTeams } from '../teams/present.js';
import { findTeamsByIds } from '../teams/repo.js';
import { presentUser } from '../users/present.js';
import { findUsersByIds } from '../users/repo.js';
import { findGrant, listGrants, type PrincipalType, setGrants, type Target } from './repo.js';
import {
  AggregateQuery,
  InviteBody,
  TeamPermissionEntry,
  UpdatePermissionBody,
  UserPermissionEntry,
} from './schemas.js';

interface Kind {
  type: NodeType;
  /** Path prefix and parameter, e.g. `/spaces/:spaceId`. */
  base: string;
  param: 'spaceId' | 'collectionId';
  /** Suffix of the official operation ids: `Space` or `Collection`. */
  name: 'Space' | 'Collection';
}

const KINDS: Kind[] = [
  { type: 'space', base: '/spaces/:spaceId', param: 'spaceId', name: 'Space' },
  { type: 'collection', base: '/collections/:collectionId', param: 'collectionId', name: 'Collection' },
];

async function authorize(db: Db, kind: Kind, userId: string, id: string, needed: Role, action: string) {
  const { row, role } =
    kind.type === 'space'
      ? await authorizeSpace(db, userId, id, needed, action)
      : await authorizeCollection(db, userId, id, needed, action);
  const target: Target = { type: kind.type, id: row.id, organizationId: row.organization_id };
  return { target, role };
}

/** 400 naming the first id that is not a member (users) or team (teams) of the organization. */
async function requirePrincipals(db: Db, organizationId: string, type: PrincipalType, ids: string[], field: string) {
  if (ids.length === 0) return;
  const found =
    type === 'user'
      ? await db
          .selectFrom('members')
          .select('user_id as id')
          .where('organization_id', '=', organizationId)
          .where('user_id', 'in', ids)
          .execute()
      : await db
          .selectFrom('teams')
          .select('id')
          .where('organization_id', '=', organizationId)
          .where('id', 'in', ids)
          .execute();
  const known = new Set(found.map((r) => r.id));
  const missing = ids.find((id) => !known.has(id));
  // 404, as the official API answers for an unknown user or team.
  if (missing)
    throw notFound(`${field}: "${missing}" is not a ${type === 'user' ? 'member' : 'team'} of the organization`);
}

export default async function permissionRoutes(app: App) {
  for (const kind of KINDS) {
    const tags = ['permissions'];
    const params = Type.Object({ [kind.param]: Type.String({ minLength: 1 }) });
    const idOf = (p: Record<string, string>) => p[kind.param] as string;
    /** The space or collection of the request, if the caller has at least `needed` on it. */
    const targetFor = (request: FastifyRequest, needed: Role, action: string) =>
      authorize(app.db, kind, caller(request).user.id, idOf(request.params as Record<string, string>), needed, action);
    const principalParams = (key: 'userId' | 'teamId') =>
      Type.Object({ [kind.param]: Type.String({ minLength: 1 }), [key]: Type.String({ minLength: 1 }) });

    app.post(
      `${kind.base}/permissions`,
      {
        config: { scope: 'space:permissions:write' },
        schema: { operationId: `inviteTo${kind.name}`, tags, params, body: InviteBody, response: { 204: NoContent } },
      },
      async (request, reply) => {
        const { users = [], teams = [], role } = request.body;
        if (users.length === 0 && teams.length === 0) throw badRequest('body must name users or teams to invite');
        const { target } = await targetFor(request, 'admin', 'manage its permissions');
        await requirePrincipals(app.db, target.organizationId, 'user', users, 'body/users');
        await requirePrincipals(app.db, target.organizationId, 'team', teams, 'body/teams');
        await setGrants(app.db, target, 'user', users, role as Role | null);
        await setGrants(app.db, target, 'team', teams, role as Role | null);
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${kind.base}/permissions/users`,
      {
        config: { scope: 'space:permissions:read' },
        schema: {
          operationId: `listUserPermissionsIn${kind.name}`,
          tags,
          params,
          querystring: ListQuery,
          response: { 200: PagedList(UserPermissionEntry) },
        },
      },
      async (request) => {
        const { target } = await targetFor(request, 'read', 'read it');
        const page = await listGrants(app.db, target, 'user', request.query);
        const byId = await findUsersByIds(
          app.db,
          page.items.map((g) => g.principal_id),
        );
        return {
          ...page,
          items: page.items.flatMap((g) => {
            const user = byId.get(g.principal_id);
            return user ? [{ permission: g.role as Role, user: presentUser(user, app.urls) }] : [];
          }),
        };
      },
    );

    app.get(
      `${kind.base}/permissions/teams`,
      {
        config: { scope: 'space:permissions:read' },
        schema: {
          operationId: `listTeamPermissionsIn${kind.name}`,
          tags,
          params,
          querystring: ListQuery,
          response: { 200: PagedList(TeamPermissionEntry) },
        },
      },
      async (request) => {
        const { target, role } = await targetFor(request, 'read', 'read it');
        const page = await listGrants(app.db, target, 'team', request.query);
        const rows = await findTeamsByIds(
          app.db,
          page.items.map((g) => g.principal_id),
        );
        const presented = new Map((await presentTeams(app.db, rows, () => role === 'admin')).map((t) => [t.id, t]));
        return {
          ...page,
          items: page.items.flatMap((g) => {
            const team = presented.get(g.principal_id);
            return team ? [{ permission: g.role as Role, team }] : [];
          }),
        };
      },
    );

    app.get(
      `${kind.base}/permissions/aggregate`,
      {
        config: { scope: 'space:permissions:read' },
        schema: {
          operationId: `listPermissionsAggregateIn${kind.name}`,
          tags,
          params,
          querystring: AggregateQuery,
          response: { 200: PagedList(UserPermissionEntry) },
        },
      },
      async (request) => {
        const { target } = await targetFor(request, 'read', 'read it');
        const table = kind.type === 'space' ? 'spaces' : 'collections';
        const node = await app.db
          .selectFrom(table)
          .select(['id', 'parent_id', 'default_level'])
          .where('id', '=', target.id)
          .executeTakeFirstOrThrow();
        const all = (await aggregateRoles(app.db, target.organizationId, { type: kind.type, ...node }))
          .filter((e) => !request.query.role || e.role === request.query.role)
          .sort((a, b) => a.userId.localeCompare(b.userId));
        const page = paginateArray(all, (e) => e.userId, request.query);
        const byId = await findUsersByIds(
          app.db,
          page.items.map((e) => e.userId),
        );
        return {
          ...page,
          items: page.items.flatMap((e) => {
            const user = byId.get(e.userId);
            return user ? [{ permission: e.role, user: presentUser(user, app.urls) }] : [];
          }),
        };
      },
    );

    for (const principal of ['user', 'team'] as const) {
      const key = principal === 'user' ? 'userId' : 'teamId';
      const noun = principal === 'user' ? 'User' : 'Team';
      const path = `${kind.base}/permissions/${principal}s/:${key}`;
      /** The target and principal; with `mustExist`, 404 when the principal holds no grant there. */
      const loadGrant = async (request: FastifyRequest, mustExist: boolean) => {
        const { target } = await targetFor(request, 'admin', 'manage its permissions');
        const id = (request.params as Record<string, string>)[key] as string;
        if (mustExist && !(await findGrant(app.db, target, principal, id)))
          throw notFound(`${principal} ${id} has no permission here`);
        return { target, id };
      };

      app.patch(
        path,
        {
          config: { scope: 'space:permissions:write' },
          schema: {
            operationId: `update${noun}PermissionIn${kind.name}`,
            tags,
            params: principalParams(key),
            body: UpdatePermissionBody,
            response: { 204: NoContent },
          },
        },
        async (request, reply) => {
          const { target, id } = await loadGrant(request, true);
          if (request.body.role !== undefined)
            await setGrants(app.db, target, principal, [id], request.body.role as Role | null);
          return reply.code(204).send(null);
        },
      );

      app.delete(
        path,
        {
          config: { scope: 'space:permissions:write' },
          schema: {
            operationId: `remove${noun}From${kind.name}`,
            tags,
            params: principalParams(key),
            response: { 204: NoContent },
          },
        },
        async (request, reply) => {
          // Removing a grant that is not there is a no-op (204), as in the official API.
          const { target, id } = await loadGrant(request, false);
          await setGrants(app.db, target, principal, [id], null);
          return reply.code(204).send(null);
        },
      );
    }
  }
}
