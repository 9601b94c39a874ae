/**
 * The handlers of the grants endpoints, shared by the space and the collection variant of each
 * (routes.ts declares every endpoint by its own path and operationId). Reads call the repos and
 * `src/permissions`; changes call the service.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { type Page, paginateArray } from '../../lib/paging.js';
import type { Role } from '../../lib/schemas.js';
import { authorizeNode, type NodeRef } from '../../permissions/content.js';
import type { PrincipalType } from '../../permissions/grants.js';
import { aggregateRoles, type NodeType } from '../../permissions/resolver.js';
import { presentTeams } from '../teams/present.js';
import { findTeamsByIds, teamCounts } from '../teams/repo.js';
import { presentUser } from '../users/present.js';
import { findUsersByIds } from '../users/repo.js';
import { findNode, listGrants } from './repo.js';
import { inviteToNode, removeGrant, updateGrant } from './service.js';

interface Paging {
  page?: string;
  limit?: number;
}

type UserEntry = { permission: Role; user: ReturnType<typeof presentUser> };
type TeamEntry = { permission: Role; team: ReturnType<typeof presentTeams>[number] };

/** The handlers of one kind of node (`space` or `collection`); `idOf` reads its id from the params. */
export function grantHandlers(app: App, type: NodeType) {
  const param = type === 'space' ? 'spaceId' : 'collectionId';
  const nodeOf = (request: FastifyRequest): NodeRef => ({
    type,
    id: (request.params as Record<string, string>)[param] as string,
  });
  const readable = (request: FastifyRequest) =>
    authorizeNode(app.db, caller(request).user.id, nodeOf(request), 'read', 'read it');
  const principalId = (request: FastifyRequest, principal: PrincipalType) =>
    (request.params as Record<string, string>)[principal === 'user' ? 'userId' : 'teamId'] as string;

  return {
    async invite(
      request: FastifyRequest<{ Body: { users?: string[]; teams?: string[]; role: Role | null } }>,
      reply: FastifyReply,
    ) {
      await inviteToNode(serviceContext(app, request), nodeOf(request), request.body);
      return reply.code(204).send(null);
    },

    async listUsers(request: FastifyRequest<{ Querystring: Paging }>): Promise<Page<UserEntry>> {
      const { target } = await readable(request);
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

    async listTeams(request: FastifyRequest<{ Querystring: Paging }>): Promise<Page<TeamEntry>> {
      const { target, role } = await readable(request);
      const page = await listGrants(app.db, target, 'team', request.query);
      const ids = page.items.map((g) => g.principal_id);
      const [rows, counts] = await Promise.all([findTeamsByIds(app.db, ids), teamCounts(app.db, ids)]);
      const presented = new Map(presentTeams(rows, counts, () => role === 'admin').map((t) => [t.id, t]));
      return {
        ...page,
        items: page.items.flatMap((g) => {
          const team = presented.get(g.principal_id);
          return team ? [{ permission: g.role as Role, team }] : [];
        }),
      };
    },

    async aggregate(request: FastifyRequest<{ Querystring: Paging & { role?: Role } }>): Promise<Page<UserEntry>> {
      const { target } = await readable(request);
      const node = await findNode(app.db, type, target.id);
      const all = (await aggregateRoles(app.db, target.organizationId, node))
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

    /** PATCH of a user's or team's grant. */
    update(principal: PrincipalType) {
      return async (request: FastifyRequest<{ Body: { role?: Role | null } }>, reply: FastifyReply) => {
        const ctx = serviceContext(app, request);
        await updateGrant(ctx, nodeOf(request), principal, principalId(request, principal), request.body.role);
        return reply.code(204).send(null);
      };
    },

    /** DELETE of a user's or team's grant. */
    remove(principal: PrincipalType) {
      return async (request: FastifyRequest, reply: FastifyReply) => {
        await removeGrant(serviceContext(app, request), nodeOf(request), principal, principalId(request, principal));
        return reply.code(204).send(null);
      };
    },
  };
}
