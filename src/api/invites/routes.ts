/**
 * Invite links (`/orgs/{organizationId}/link-invites`), joining with one
 * (`/orgs/{organizationId}/invites/{inviteId}`) and joining by e-mail domain (`/orgs/{organizationId}/join`).
 */
import { secretsKey } from '../../core/secrets.js';
import type { InviteLinkRow } from '../../db/schema.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { notFound } from '../../lib/errors.js';
import { ListQuery, PagedList } from '../../lib/paging.js';
import type { Role } from '../../lib/schemas.js';
import { NoContent } from '../../lib/schemas.js';
import { findMembership, requireOrgMember, requireOrgRole } from '../../permissions/organization.js';
import { rank } from '../../permissions/roles.js';
import { presentInviteLink } from './present.js';
import { findInviteLink, listInviteLinks } from './repo.js';
import { CreateInviteBody, InviteLink, InviteParams, JoinedResponse, OrgParams, UpdateInviteBody } from './schemas.js';
import {
  createInviteLink,
  deleteInviteLink,
  joinByEmailDomain,
  joinWithInvite,
  unsealInviteSecret,
  updateInviteLink,
} from './service.js';

const tags = ['organization-invites'];

export default async function inviteRoutes(app: App) {
  const key = () => secretsKey(app.db, app.config.secretsKey, app.log);

  /** Redundant for the caller when their organization role already covers the invite's (official definition). */
  async function present(row: InviteLinkRow, secret: string, userId: string) {
    const membership = await findMembership(app.db, row.organization_id, userId);
    const redundant = membership !== null && rank(membership.role) >= rank(row.role as Role | null);
    return presentInviteLink(row, secret, redundant, app.urls);
  }

  /** Listing and reading links shows their secrets: org admins only (members see the organization, 403). */
  async function requireAdmin(organizationId: string, userId: string) {
    requireOrgRole(await requireOrgMember(app.db, organizationId, userId), 'admin', 'see invite links');
  }

  app.get(
    '/orgs/:organizationId/link-invites',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'listOrganizationInviteLinks',
        tags,
        params: OrgParams,
        querystring: ListQuery,
        response: { 200: PagedList(InviteLink) },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const userId = caller(request).user.id;
      await requireAdmin(organizationId, userId);
      const page = await listInviteLinks(app.db, organizationId, request.query);
      const sealKey = await key();
      const items = [];
      for (const row of page.items) items.push(await present(row, unsealInviteSecret(sealKey, row), userId));
      return { ...page, items };
    },
  );

  app.post(
    '/orgs/:organizationId/link-invites',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'createOrganizationInvite',
        tags,
        params: OrgParams,
        body: CreateInviteBody,
        response: { 201: InviteLink },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const ctx = serviceContext(app, request);
      const { row, secret } = await createInviteLink(ctx, organizationId, request.body, await key());
      return reply.code(201).send(await present(row, secret, caller(request).user.id));
    },
  );

  app.get(
    '/orgs/:organizationId/link-invites/:inviteId',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'getOrganizationInviteLink',
        tags,
        params: InviteParams,
        response: { 200: InviteLink },
      },
    },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      const userId = caller(request).user.id;
      await requireAdmin(organizationId, userId);
      const row = await findInviteLink(app.db, organizationId, inviteId);
      if (!row) throw notFound(`invite ${inviteId} not found in organization ${organizationId}`);
      return present(row, inviteId, userId);
    },
  );

  app.patch(
    '/orgs/:organizationId/link-invites/:inviteId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'updateOrganizationInviteById',
        tags,
        params: InviteParams,
        body: UpdateInviteBody,
        response: { 200: InviteLink },
      },
    },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      const row = await updateInviteLink(serviceContext(app, request), organizationId, inviteId, request.body);
      return present(row, inviteId, caller(request).user.id);
    },
  );

  app.delete(
    '/orgs/:organizationId/link-invites/:inviteId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'deleteOrganizationInviteById',
        tags,
        params: InviteParams,
        // As the official document: 205 when the invite was deleted, 204 when there was none.
        response: { 204: NoContent, 205: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, inviteId } = request.params;
      const deleted = await deleteInviteLink(serviceContext(app, request), organizationId, inviteId);
      return reply.code(deleted ? 205 : 204).send(null);
    },
  );

  app.post(
    '/orgs/:organizationId/invites/:inviteId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'joinOrganizationWithInvite',
        tags,
        params: InviteParams,
        response: { 200: JoinedResponse },
      },
    },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      await joinWithInvite(serviceContext(app, request), organizationId, inviteId);
      return {};
    },
  );

  app.post(
    '/orgs/:organizationId/join',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'joinOrganization',
        tags: ['organizations'],
        params: OrgParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await joinByEmailDomain(serviceContext(app, request), request.params.organizationId);
      return reply.code(204).send(null);
    },
  );
}
