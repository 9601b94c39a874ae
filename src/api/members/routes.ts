/** Organization members: list, get, change role, remove, SSO, their teams; and invites. */
import { Type } from 'typebox';
import { readsParts } from '../../core/answer-scope.js';
import { spaceSetPart } from '../../db/scope-parts.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { notFound } from '../../lib/errors.js';
import { mapPage, PagedList, PageQuery, paginateArray } from '../../lib/paging.js';
import { NoContent, Params, RoleSchema } from '../../lib/schemas.js';
import { requireOrgMember } from '../../permissions/organization.js';
import { loadViewer } from '../../permissions/resolver.js';
import { presentSpaces, type SpaceObject } from '../spaces/present.js';
import { findSpacesByIds, listSpaceNodes, spaceExtras } from '../spaces/repo.js';
import { Space } from '../spaces/schemas.js';
import { mailInvitations } from './invite-mail.js';
import { presentMember, presentMembers } from './present.js';
import { findMember, findMemberForRead, listMembers, type MemberRecord, memberCounts, siteCounts } from './repo.js';
import {
  InviteBody,
  InviteResponse,
  ListMembersQuery,
  Member,
  MemberParams,
  Order,
  UpdateMemberBody,
} from './schemas.js';
import { inviteMembers, removeMember, setSsoMember, updateMember } from './service.js';

const tags = ['members'];
const OrgParams = Type.Object({ organizationId: Params.organizationId });

export default async function memberRoutes(app: App) {
  async function loadMember(organizationId: string, userId: string) {
    const member = await findMember(app.db, organizationId, userId);
    if (!member) throw notFound(`member ${userId} not found in organization ${organizationId}`);
    return member;
  }

  /** Members with their counts, loaded once for the list. */
  async function present(organizationId: string, records: MemberRecord[]) {
    const counts = await memberCounts(
      app.db,
      organizationId,
      records.map((r) => r.user_id),
    );
    return presentMembers(records, counts, app.urls);
  }

  async function presentOne(organizationId: string, userId: string) {
    const [presented] = await present(organizationId, [await loadMember(organizationId, userId)]);
    return presented as NonNullable<typeof presented>;
  }

  app.get(
    '/orgs/:organizationId/members',
    {
      config: { scope: 'organization:members:read', cacheable: true },
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
      readsParts(spaceSetPart(organizationId)); // the base, and which spaces exist (the counts)
      await requireOrgMember(app.db, organizationId, caller(request).user.id);
      const page = await listMembers(app.db, organizationId, request.query);
      const sites = await siteCounts(
        app.db,
        organizationId,
        page.items.map((r) => r.user_id),
      );
      return mapPage(page, (r) =>
        presentMember(
          r,
          { teams: Number(r.team_count), spaces: Number(r.space_count), sites: sites.get(r.user_id) ?? 0 },
          app.urls,
        ),
      );
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId',
    {
      config: { scope: 'organization:members:read', cacheable: true },
      schema: { operationId: 'getMemberInOrganizationById', tags, params: MemberParams, response: { 200: Member } },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      readsParts(spaceSetPart(organizationId)); // the base, and which spaces exist (the counts)
      await requireOrgMember(app.db, organizationId, caller(request).user.id);
      const member = await findMemberForRead(app.db, organizationId, userId);
      if (!member) throw notFound(`member ${userId} not found in organization ${organizationId}`);
      return presentMember(member, member.counts, app.urls);
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
      await updateMember(serviceContext(app, request), organizationId, userId, request.body);
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
      await removeMember(serviceContext(app, request), organizationId, userId);
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
      await setSsoMember(serviceContext(app, request), organizationId, userId);
      return presentOne(organizationId, userId);
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId/spaces',
    {
      config: { scope: 'organization:members:read', cacheable: true },
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
      const rows = await findSpacesByIds(
        app.db,
        page.items.map((e) => e.id),
      );
      const spaces = presentSpaces(rows, me, await spaceExtras(app.db, rows), app.urls);
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
      const users = await inviteMembers(serviceContext(app, request), organizationId, request.body);
      await mailInvitations(app, organizationId, caller(request).user.display_name, users);
      return { users, invited: users.length };
    },
  );
}
