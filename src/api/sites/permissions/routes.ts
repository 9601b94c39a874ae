/**
 * Who has which role on a site (`site-permissions`, `site-users` in the official document): invite
 * users and teams, list the direct user and team grants, change or remove one. A grant counts like
 * the organization role on that one site (src/permissions/sites.ts); the aggregate of everyone who
 * can read the site's content is `listPermissionsAggregateInSite` (../aggregate-routes.ts).
 */
import type { FastifyReply } from 'fastify';
import type { App } from '../../../http/app.js';
import { serviceContext } from '../../../http/service-context.js';
import { ListQuery, PagedList } from '../../../lib/paging.js';
import { NoContent, type Role } from '../../../lib/schemas.js';
import { authorizeSiteOf } from '../../../permissions/sites.js';
import { listGrants } from '../../grants/repo.js';
import { presentTeams } from '../../teams/present.js';
import { findTeamsByIds, teamCounts } from '../../teams/repo.js';
import { presentUser } from '../../users/present.js';
import { findUsersByIds } from '../../users/repo.js';
import { SiteParams } from '../shared/schemas.js';
import {
  InviteToSiteBody,
  SiteTeamParams,
  SiteUserParams,
  TeamSitePermission,
  UpdateSitePermissionBody,
  UserSitePermission,
} from './schemas.js';
import { inviteToSite, removeSiteGrant, updateSiteGrant } from './service.js';

const tags = ['site-permissions'];

/** 205 when a grant was removed, 204 when there was none (as the official API answers). */
const removed = (reply: FastifyReply, done: boolean) => reply.code(done ? 205 : 204).send(null);

export default async function sitePermissionRoutes(app: App) {
  app.post(
    '/orgs/:organizationId/sites/:siteId/permissions',
    {
      config: { scope: 'site:permissions:write' },
      schema: {
        operationId: 'inviteToSite',
        tags,
        params: SiteParams,
        body: InviteToSiteBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      await inviteToSite(serviceContext(app, request), organizationId, siteId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/permissions/users',
    {
      config: { scope: 'site:permissions:read', cacheable: true },
      schema: {
        operationId: 'listUserPermissionsInSite',
        tags,
        params: SiteParams,
        querystring: ListQuery,
        response: { 200: PagedList(UserSitePermission) },
      },
    },
    async (request) => {
      const { site } = await authorizeSiteOf(app.db, request, 'read', 'read it');
      const target = { type: 'site' as const, id: site.id, organizationId: site.organization_id };
      const page = await listGrants(app.db, target, 'user', request.query);
      const users = await findUsersByIds(
        app.db,
        page.items.map((g) => g.principal_id),
      );
      return {
        ...page,
        items: page.items.flatMap((g) => {
          const user = users.get(g.principal_id);
          return user ? [{ permission: g.role as Role, user: presentUser(user, app.urls) }] : [];
        }),
      };
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/permissions/teams',
    {
      config: { scope: 'site:permissions:read', cacheable: true },
      schema: {
        operationId: 'listTeamPermissionsInSite',
        tags,
        params: SiteParams,
        querystring: ListQuery,
        response: { 200: PagedList(TeamSitePermission) },
      },
    },
    async (request) => {
      const { site, role } = await authorizeSiteOf(app.db, request, 'read', 'read it');
      const target = { type: 'site' as const, id: site.id, organizationId: site.organization_id };
      const page = await listGrants(app.db, target, 'team', request.query);
      const ids = page.items.map((g) => g.principal_id);
      const [rows, counts] = await Promise.all([findTeamsByIds(app.db, ids), teamCounts(app.db, ids)]);
      const teams = new Map(presentTeams(rows, counts, () => role === 'admin').map((t) => [t.id, t]));
      return {
        ...page,
        items: page.items.flatMap((g) => {
          const team = teams.get(g.principal_id);
          return team ? [{ permission: g.role as Role, team }] : [];
        }),
      };
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/permissions/users/:userId',
    {
      config: { scope: 'site:permissions:write' },
      schema: {
        operationId: 'updateUserPermissionInSite',
        tags: ['site-users'],
        params: SiteUserParams,
        body: UpdateSitePermissionBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, userId } = request.params;
      const ctx = serviceContext(app, request);
      await updateSiteGrant(ctx, organizationId, siteId, 'user', userId, request.body.role);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/permissions/users/:userId',
    {
      config: { scope: 'site:permissions:write' },
      schema: {
        operationId: 'removeUserFromSite',
        tags: ['site-users'],
        params: SiteUserParams,
        response: { 204: NoContent, 205: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, userId } = request.params;
      return removed(
        reply,
        await removeSiteGrant(serviceContext(app, request), organizationId, siteId, 'user', userId),
      );
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/permissions/teams/:teamId',
    {
      config: { scope: 'site:permissions:write' },
      schema: {
        operationId: 'updateTeamPermissionInSite',
        tags,
        params: SiteTeamParams,
        body: UpdateSitePermissionBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, teamId } = request.params;
      const ctx = serviceContext(app, request);
      await updateSiteGrant(ctx, organizationId, siteId, 'team', teamId, request.body.role);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/permissions/teams/:teamId',
    {
      config: { scope: 'site:permissions:write' },
      schema: {
        operationId: 'removeTeamFromSite',
        tags,
        params: SiteTeamParams,
        response: { 204: NoContent, 205: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, teamId } = request.params;
      return removed(
        reply,
        await removeSiteGrant(serviceContext(app, request), organizationId, siteId, 'team', teamId),
      );
    },
  );
}
