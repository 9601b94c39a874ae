/** Teams and their members. Org members read; org admins change teams; team owners manage their team's members. */
import { Type } from 'typebox';
import type { TeamRow } from '../../db/schema.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { ListQuery, mapPage, PagedList } from '../../lib/paging.js';
import { NoContent, Params, type TeamRole } from '../../lib/schemas.js';
import { canManageTeam, isOrgAdmin, type OrgMembership, requireOrgMember } from '../../permissions/organization.js';
import { presentMembers } from '../members/present.js';
import { findMember, findMembersByKeys, memberCounts } from '../members/repo.js';
import { MemberParams } from '../members/schemas.js';
import { presentTeam, presentTeams } from './present.js';
import { findTeam, listTeamMemberships, listTeams, listTeamsOfUser, teamCounts } from './repo.js';
import {
  CreateTeamBody,
  ListMemberTeamsQuery,
  ListTeamsQuery,
  MemberTeamEntry,
  PutTeamMemberBody,
  Team,
  TeamMemberEntry,
  TeamMemberParams,
  TeamParams,
  UpdateTeamBody,
  UpdateTeamMembersBody,
} from './schemas.js';
import { addTeamMember, createTeam, deleteTeam, removeTeamMember, renameTeam, updateTeamMembers } from './service.js';

const tags = ['teams'];
const OrgParams = Type.Object({ organizationId: Params.organizationId });

export default async function teamRoutes(app: App) {
  async function loadTeam(organizationId: string, teamId: string) {
    const team = await findTeam(app.db, organizationId, teamId);
    if (!team) throw notFound(`team ${teamId} not found`);
    return team;
  }

  /** Teams as `membership` sees them, with their counts loaded once for the list. */
  async function present<T extends TeamRow>(teams: T[], manages: (team: T) => boolean) {
    const counts = await teamCounts(
      app.db,
      teams.map((t) => t.id),
    );
    return presentTeams(teams, counts, manages);
  }

  async function presentOne(membership: OrgMembership, teamId: string) {
    const team = await loadTeam(membership.organizationId, teamId);
    const manages = await canManageTeam(app.db, membership, teamId);
    const [presented] = await present([team], () => manages);
    return presented as NonNullable<typeof presented>;
  }

  app.get(
    '/orgs/:organizationId/teams',
    {
      config: { scope: 'organization:members:read', cacheable: true },
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
      const result = await listTeams(app.db, organizationId, membership.userId, { title, managedBy, page, limit });
      const admin = isOrgAdmin(membership);
      return mapPage(result, (t) =>
        presentTeam(
          t,
          { members: Number(t.member_count), spaces: Number(t.space_count) },
          admin || Boolean(Number(t.viewer_owns)),
        ),
      );
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
      const team = await createTeam(serviceContext(app, request), organizationId, request.body);
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      reply.code(201).header('location', app.urls.api(`/orgs/${organizationId}/teams/${team.id}`));
      return presentOne(membership, team.id);
    },
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId',
    {
      config: { scope: 'organization:members:read', cacheable: true },
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
      await renameTeam(serviceContext(app, request), organizationId, teamId, request.body.title);
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
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
      await deleteTeam(serviceContext(app, request), organizationId, teamId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId/members',
    {
      config: { scope: 'organization:members:read', cacheable: true },
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
      const ids = page.items.map((m) => m.user_id);
      const [records, counts] = await Promise.all([
        findMembersByKeys(app.db, organizationId, ids),
        memberCounts(app.db, organizationId, ids),
      ]);
      const members = new Map(presentMembers(records, counts, app.urls).map((m) => [m.id, m]));
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
      await updateTeamMembers(serviceContext(app, request), organizationId, teamId, request.body);
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
      const role = request.body?.role ?? 'member';
      await addTeamMember(serviceContext(app, request), organizationId, teamId, userId, role);
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
      await removeTeamMember(serviceContext(app, request), organizationId, teamId, userId);
      return reply.code(204).send(null);
    },
  );

  // The teams of one member: declared with the members endpoints in the official document, served
  // here so that the teams area reads members and never the other way round.
  app.get(
    '/orgs/:organizationId/members/:userId/teams',
    {
      config: { scope: 'organization:members:read', cacheable: true },
      schema: {
        operationId: 'listTeamsForOrganizationMember',
        tags: ['members'],
        params: MemberParams,
        querystring: ListMemberTeamsQuery,
        response: { 200: PagedList(MemberTeamEntry) },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      if (!(await findMember(app.db, organizationId, userId))) {
        throw notFound(`member ${userId} not found in organization ${organizationId}`);
      }
      const page = await listTeamsOfUser(app.db, organizationId, userId, request.query);
      const viewerOwns = (t: { member_role: string }) => userId === membership.userId && t.member_role === 'owner';
      const teams = await present(page.items, (t) => isOrgAdmin(membership) || viewerOwns(t));
      return {
        ...page,
        items: page.items.map((t, i) => ({
          team: teams[i] as NonNullable<(typeof teams)[number]>,
          member: { role: t.member_role as 'owner' | 'member' },
        })),
      };
    },
  );
}
