/** Teams and their members. Org members read; org admins change teams; team owners manage their team's members. */
import { Type } from 'typebox';
import type { App } from '../../core/app.js';
import { caller } from '../../core/auth.js';
import { badRequest, forbidden, notFound } from '../../core/errors.js';
import { ListQuery, PagedList } from '../../core/paging.js';
import { NoContent, Params, type TeamRole } from '../../core/schemas.js';
import type { Db } from '../../db/database.js';
import {
  canManageTeam,
  isOrgAdmin,
  type OrgMembership,
  requireOrgMember,
  requireOrgRole,
} from '../../permissions/organization.js';
import { presentMembers } from '../members/present.js';
import { findMember, findMembersByKeys } from '../members/repo.js';
import { presentTeams } from './present.js';
import {
  applyTeamMembership,
  createTeam,
  deleteTeam,
  findTeam,
  findTeamMembership,
  listTeamMemberships,
  listTeams,
  ownedTeamIds,
  renameTeam,
} from './repo.js';
import {
  CreateTeamBody,
  ListTeamsQuery,
  PutTeamMemberBody,
  Team,
  TeamMemberEntry,
  TeamMemberParams,
  TeamParams,
  UpdateTeamBody,
  UpdateTeamMembersBody,
} from './schemas.js';

const tags = ['teams'];
const OrgParams = Type.Object({ organizationId: Params.organizationId });

/** Resolves user ids or e-mails to organization members; 400 naming the first unknown one. */
async function resolveMemberKeys(db: Db, organizationId: string, keys: string[], field: string) {
  const members = await findMembersByKeys(db, organizationId, keys);
  const byKey = new Map<string, string>();
  for (const m of members) {
    byKey.set(m.user_id, m.user_id);
    byKey.set(m.email, m.user_id);
  }
  return keys.map((key) => {
    const userId = byKey.get(key) ?? byKey.get(key.toLowerCase());
    if (!userId) throw badRequest(`${field}: "${key}" is not a member of the organization`);
    return userId;
  });
}

export default async function teamRoutes(app: App) {
  async function loadTeam(organizationId: string, teamId: string) {
    const team = await findTeam(app.db, organizationId, teamId);
    if (!team) throw notFound(`team ${teamId} not found`);
    return team;
  }

  async function presentOne(membership: OrgMembership, teamId: string) {
    const team = await loadTeam(membership.organizationId, teamId);
    const manages = await canManageTeam(app.db, membership, teamId);
    const [presented] = await presentTeams(app.db, [team], () => manages);
    return presented as NonNullable<typeof presented>;
  }

  async function requireTeamManager(membership: OrgMembership, teamId: string) {
    await loadTeam(membership.organizationId, teamId);
    if (!(await canManageTeam(app.db, membership, teamId))) {
      throw forbidden('only organization admins and owners of the team can manage its members');
    }
  }

  app.get(
    '/orgs/:organizationId/teams',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'listTeamsInOrganizationById',
        tags,
        params: OrgParams,
        querystring: ListTeamsQuery,
        response: { 200: PagedList(Team) },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      const { owner, title, page, limit } = request.query;
      let managedBy: string | undefined;
      if (owner !== undefined) {
        const ownerMember = await findMember(app.db, organizationId, owner);
        if (!ownerMember) throw badRequest(`querystring/owner: "${owner}" is not a member of the organization`);
        // Admins can manage every team, so the filter keeps all of them.
        if (ownerMember.role !== 'admin') managedBy = owner;
      }
      const result = await listTeams(app.db, organizationId, { title, managedBy, page, limit });
      const owned = await ownedTeamIds(
        app.db,
        membership.userId,
        result.items.map((t) => t.id),
      );
      const items = await presentTeams(app.db, result.items, (t) => isOrgAdmin(membership) || owned.has(t.id));
      return { ...result, items };
    },
  );

  app.put(
    '/orgs/:organizationId/teams',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'createOrganizationTeam',
        tags,
        params: OrgParams,
        body: CreateTeamBody,
        response: { 201: Team },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      requireOrgRole(membership, 'admin', 'create teams');
      const memberIds = await resolveMemberKeys(app.db, organizationId, request.body.members ?? [], 'body/members');
      const team = await createTeam(app.db, organizationId, request.body.title, memberIds);
      reply.code(201).header('location', app.urls.api(`/orgs/${organizationId}/teams/${team.id}`));
      return presentOne(membership, team.id);
    },
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId',
    {
      config: { scope: 'organization:members:read' },
      schema: { operationId: 'getTeamInOrganizationById', tags, params: TeamParams, response: { 200: Team } },
    },
    async (request) => {
      const membership = await requireOrgMember(app.db, request.params.organizationId, caller(request).user.id);
      return presentOne(membership, request.params.teamId);
    },
  );

  app.patch(
    '/orgs/:organizationId/teams/:teamId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'updateTeamInOrganizationById',
        tags,
        params: TeamParams,
        body: UpdateTeamBody,
        response: { 200: Team },
      },
    },
    async (request) => {
      const { organizationId, teamId } = request.params;
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      await loadTeam(organizationId, teamId);
      requireOrgRole(membership, 'admin', 'rename teams');
      await renameTeam(app.db, teamId, request.body.title);
      return presentOne(membership, teamId);
    },
  );

  app.delete(
    '/orgs/:organizationId/teams/:teamId',
    {
      config: { scope: 'organization:members:write' },
      schema: { operationId: 'removeTeamFromOrganizationById', tags, params: TeamParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { organizationId, teamId } = request.params;
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      await loadTeam(organizationId, teamId);
      requireOrgRole(membership, 'admin', 'delete teams');
      await deleteTeam(app.db, teamId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId/members',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'listTeamMembersInOrganizationById',
        tags,
        params: TeamParams,
        querystring: ListQuery,
        response: { 200: PagedList(TeamMemberEntry) },
      },
    },
    async (request) => {
      const { organizationId, teamId } = request.params;
      await requireOrgMember(app.db, organizationId, caller(request).user.id);
      await loadTeam(organizationId, teamId);
      const page = await listTeamMemberships(app.db, teamId, request.query);
      const records = await findMembersByKeys(
        app.db,
        organizationId,
        page.items.map((m) => m.user_id),
      );
      const members = new Map((await presentMembers(app.db, organizationId, records, app.urls)).map((m) => [m.id, m]));
      return {
        ...page,
        items: page.items.flatMap((m) => {
          const organization = members.get(m.user_id);
          return organization
            ? [{ organization, team: { role: m.role as TeamRole }, permissions: { view: true } }]
            : [];
        }),
      };
    },
  );

  app.put(
    '/orgs/:organizationId/teams/:teamId/members',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'updateMembersInOrganizationTeam',
        tags,
        params: TeamParams,
        body: UpdateTeamMembersBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId } = request.params;
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      await requireTeamManager(membership, teamId);
      const { add = [], remove = [], memberships = {} } = request.body;
      const toAdd = await resolveMemberKeys(app.db, organizationId, add, 'body/add');
      const toRemove = new Set(await resolveMemberKeys(app.db, organizationId, remove, 'body/remove'));
      const roleKeys = Object.keys(memberships);
      const roleIds = await resolveMemberKeys(app.db, organizationId, roleKeys, 'body/memberships');
      const upsert = new Map<string, TeamRole | undefined>(toAdd.map((id) => [id, undefined]));
      for (const [i, id] of roleIds.entries()) upsert.set(id, memberships[roleKeys[i] as string]?.role);
      // A user both added and removed ends up removed.
      for (const id of toRemove) upsert.delete(id);
      await applyTeamMembership(app.db, teamId, { upsert, remove: toRemove });
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'addMemberToOrganizationTeamById',
        tags,
        params: TeamMemberParams,
        body: Type.Optional(PutTeamMemberBody),
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      await requireTeamManager(membership, teamId);
      const [memberId] = await resolveMemberKeys(app.db, organizationId, [userId], 'params/userId');
      const role = request.body?.role ?? 'member';
      await applyTeamMembership(app.db, teamId, { upsert: new Map([[memberId as string, role]]), remove: new Set() });
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'deleteMemberFromOrganizationTeamById',
        tags,
        params: TeamMemberParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      await requireTeamManager(membership, teamId);
      if (!(await findTeamMembership(app.db, teamId, userId))) {
        throw notFound(`user ${userId} is not a member of team ${teamId}`);
      }
      await applyTeamMembership(app.db, teamId, { upsert: new Map(), remove: new Set([userId]) });
      return reply.code(204).send(null);
    },
  );
}
