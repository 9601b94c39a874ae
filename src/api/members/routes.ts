/** Organization members: list, get, change role, remove, SSO, their teams; and invites. */
import { Type } from 'typebox';
import type { App } from '../../core/app.js';
import { caller } from '../../core/auth.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { PagedList, PageQuery, paginateArray } from '../../core/paging.js';
import { NoContent, Params, type Role, RoleSchema } from '../../core/schemas.js';
import { isOrgAdmin, requireOrgMember, requireOrgRole } from '../../permissions/organization.js';
import { loadViewer } from '../../permissions/resolver.js';
import { findOrganization } from '../organizations/repo.js';
import { presentSpaces, type SpaceObject } from '../spaces/present.js';
import { findSpacesByIds, listSpaceNodes } from '../spaces/repo.js';
import { Space } from '../spaces/schemas.js';
import { presentTeams } from '../teams/present.js';
import { listTeamsOfUser } from '../teams/repo.js';
import { ListMemberTeamsQuery, MemberTeamEntry } from '../teams/schemas.js';
import { findOrCreateUser } from '../users/repo.js';
import { presentMembers } from './present.js';
import { addMember, countAdmins, findMember, listMembers, removeMember, setMemberRole, setMemberSso } from './repo.js';
import {
  InviteBody,
  InviteResponse,
  ListMembersQuery,
  Member,
  MemberParams,
  Order,
  UpdateMemberBody,
} from './schemas.js';

const tags = ['members'];
const OrgParams = Type.Object({ organizationId: Params.organizationId });

export default async function memberRoutes(app: App) {
  async function loadMember(organizationId: string, userId: string) {
    const member = await findMember(app.db, organizationId, userId);
    if (!member) throw notFound(`member ${userId} not found in organization ${organizationId}`);
    return member;
  }

  async function presentOne(organizationId: string, userId: string) {
    const [presented] = await presentMembers(
      app.db,
      organizationId,
      [await loadMember(organizationId, userId)],
      app.urls,
    );
    return presented as NonNullable<typeof presented>;
  }

  /** Refuses a change that would leave the organization without an enabled admin. */
  async function keepAnAdmin(organizationId: string, current: { role: string | null }, next: Role | null | 'removed') {
    if (current.role !== 'admin' || next === 'admin') return;
    if ((await countAdmins(app.db, organizationId)) <= 1) {
      throw conflict('the organization must keep at least one admin');
    }
  }

  app.get(
    '/orgs/:organizationId/members',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'listMembersInOrganizationById',
        tags,
        params: OrgParams,
        querystring: ListMembersQuery,
        response: { 200: PagedList(Member) },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      await requireOrgMember(app.db, organizationId, caller(request).user.id);
      const page = await listMembers(app.db, organizationId, request.query);
      return { ...page, items: await presentMembers(app.db, organizationId, page.items, app.urls) };
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId',
    {
      config: { scope: 'organization:members:read' },
      schema: { operationId: 'getMemberInOrganizationById', tags, params: MemberParams, response: { 200: Member } },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      await requireOrgMember(app.db, organizationId, caller(request).user.id);
      return presentOne(organizationId, userId);
    },
  );

  app.patch(
    '/orgs/:organizationId/members/:userId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'updateMemberInOrganizationById',
        tags,
        params: MemberParams,
        body: UpdateMemberBody,
        response: { 200: Member },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      requireOrgRole(membership, 'admin', 'change member roles');
      const member = await loadMember(organizationId, userId);
      if (request.body.role !== undefined) {
        const role = request.body.role as Role | null;
        await keepAnAdmin(organizationId, member, role);
        await setMemberRole(app.db, organizationId, userId, role);
      }
      return presentOne(organizationId, userId);
    },
  );

  app.delete(
    '/orgs/:organizationId/members/:userId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'removeMemberFromOrganizationById',
        tags,
        params: MemberParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, userId } = request.params;
      const me = caller(request).user.id;
      const membership = await requireOrgMember(app.db, organizationId, me);
      // Anyone may leave; removing someone else takes an admin.
      if (userId !== me) requireOrgRole(membership, 'admin', 'remove members');
      const member = await loadMember(organizationId, userId);
      await keepAnAdmin(organizationId, member, 'removed');
      await removeMember(app.db, organizationId, userId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/orgs/:organizationId/members/:userId/sso',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'setUserAsSSOMemberForOrganization',
        tags,
        params: MemberParams,
        response: { 200: Member },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      requireOrgRole(membership, 'admin', 'set SSO members');
      await loadMember(organizationId, userId);
      await setMemberSso(app.db, organizationId, userId);
      return presentOne(organizationId, userId);
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId/teams',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'listTeamsForOrganizationMember',
        tags,
        params: MemberParams,
        querystring: ListMemberTeamsQuery,
        response: { 200: PagedList(MemberTeamEntry) },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      await loadMember(organizationId, userId);
      const page = await listTeamsOfUser(app.db, organizationId, userId, request.query);
      const viewerOwns = (t: { member_role: string }) => userId === membership.userId && t.member_role === 'owner';
      const teams = await presentTeams(app.db, page.items, (t) => isOrgAdmin(membership) || viewerOwns(t));
      return {
        ...page,
        items: page.items.map((t, i) => ({
          team: teams[i] as NonNullable<(typeof teams)[number]>,
          member: { role: t.member_role as 'owner' | 'member' },
        })),
      };
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId/spaces',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'listSpacesForOrganizationMember',
        tags,
        params: MemberParams,
        querystring: Type.Object({ ...PageQuery, order: Type.Optional(Order) }),
        response: { 200: PagedList(Type.Object({ permission: RoleSchema, space: Space })) },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      await requireOrgMember(app.db, organizationId, caller(request).user.id);
      await loadMember(organizationId, userId);
      const [me, member] = await Promise.all([
        loadViewer(app.db, organizationId, caller(request).user.id),
        loadViewer(app.db, organizationId, userId),
      ]);
      // Only spaces the caller can read too: the list must not reveal the others.
      const direction = request.query.order === 'asc' ? 1 : -1;
      const entries = (await listSpaceNodes(app.db, organizationId))
        .flatMap((s) => {
          const node = { type: 'space' as const, ...s };
          const role = member.roleOn(node);
          return role && me.roleOn(node) ? [{ id: s.id, created_at: s.created_at, role }] : [];
        })
        .sort((a, b) => direction * (a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id)));
      const page = paginateArray(entries, (e) => e.id, request.query);
      const spaces = await presentSpaces(
        app.db,
        await findSpacesByIds(
          app.db,
          page.items.map((e) => e.id),
        ),
        me,
        app.urls,
      );
      return { ...page, items: page.items.map((e, i) => ({ permission: e.role, space: spaces[i] as SpaceObject })) };
    },
  );

  app.post(
    '/orgs/:organizationId/invites',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'inviteUsersToOrganization',
        tags,
        params: OrgParams,
        body: InviteBody,
        response: { 200: InviteResponse },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      requireOrgRole(membership, 'admin', 'invite members');
      const org = await findOrganization(app.db, organizationId);
      if (!org) throw notFound(`organization ${organizationId} not found`);
      const fallbackRole = (request.body.role !== undefined ? request.body.role : org.default_role) as Role | null;
      const seen = new Set<string>();
      const users: string[] = [];
      for (const entry of request.body.emails) {
        const email = (typeof entry === 'string' ? entry : entry.email).trim().toLowerCase();
        if (seen.has(email)) throw badRequest(`body/emails lists ${email} more than once`);
        seen.add(email);
        const role = typeof entry === 'string' ? fallbackRole : (entry.role as Role | null);
        const user = await findOrCreateUser(app.db, email);
        if (await addMember(app.db, organizationId, user.id, role, request.body.sso === true)) users.push(user.id);
      }
      return { users, invited: users.length };
    },
  );
}
