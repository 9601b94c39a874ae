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
import { loadViewer } from '../../permissions/resolver.js';
import { rank } from '../../permissions/roles.js';
import { presentCollection } from '../collections/present.js';
import { presentSpace } from '../spaces/present.js';
import { type SpaceCounts, spaceCounts } from '../spaces/repo.js';
import { type PresentedTarget, presentInviteLink } from './present.js';
import { findInviteLink, listInviteLinks } from './repo.js';
import { CreateInviteBody, InviteLink, InviteParams, JoinedResponse, OrgParams, UpdateInviteBody } from './schemas.js';
import {
  createInviteLink,
  deleteInviteLink,
  findInviteTarget,
  inviteTargetOf,
  joinByEmailDomain,
  joinWithInvite,
  unsealInviteSecret,
  updateInviteLink,
} from './service.js';

const tags = ['organization-invites'];

export default async function inviteRoutes(app: App) {
  const key = () => secretsKey(app.db, app.config.secretsKey, app.log);

  /**
   * Redundant for the caller when their role already covers the invite's (official definition): their
   * organization role, or their role on the invite's space or collection. Undefined when that target
   * is gone (the link no longer works).
   */
  async function present(row: InviteLinkRow, secret: string, userId: string) {
    const target = inviteTargetOf(row);
    if (!target) {
      const membership = await findMembership(app.db, row.organization_id, userId);
      const redundant = membership !== null && rank(membership.role) >= rank(row.role as Role | null);
      return presentInviteLink(row, secret, redundant, app.urls);
    }
    const node = await findInviteTarget(app.db, row.organization_id, target);
    if (!node) return undefined;
    const viewer = await loadViewer(app.db, row.organization_id, userId);
    let role: Role | null;
    let shown: PresentedTarget;
    if ('revision_id' in node) {
      role = viewer.roleOnSpace(node);
      const counts = (await spaceCounts(app.db, [node.id])).get(node.id) as SpaceCounts;
      shown = { space: presentSpace(node, role, counts, app.urls) };
    } else {
      role = viewer.roleOnCollection(node.id);
      shown = { collection: presentCollection(node, role, app.urls) };
    }
    const redundant = viewer.isMember && rank(role) >= rank(row.role as Role | null);
    return presentInviteLink(row, secret, redundant, app.urls, shown);
  }

  /** The invite link as `present` shows it; 404 when its target is gone. */
  async function presentOrGone(row: InviteLinkRow, secret: string, userId: string) {
    const shown = await present(row, secret, userId);
    if (!shown) throw notFound(`the ${row.target_type} of invite ${secret} no longer exists`);
    return shown;
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
      // Links whose space or collection is gone are left out: they no longer work.
      for (const row of page.items) {
        const shown = await present(row, unsealInviteSecret(sealKey, row), userId);
        // The official list shows `InviteLinkToOrganization`s: a link to a target gives the guest role.
        if (shown) items.push(row.target_type ? { ...shown, role: null } : shown);
      }
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
      return reply.code(201).send(await presentOrGone(row, secret, caller(request).user.id));
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
      return presentOrGone(row, inviteId, userId);
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
      return presentOrGone(row, inviteId, caller(request).user.id);
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
