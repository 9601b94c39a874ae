/** Organizations: list mine, create, get, patch, ping. */
import { Type } from 'typebox';
import { dependsOn, readsParts } from '../../core/answer-scope.js';
import { organizationScope, userScope } from '../../db/write-scope.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { notFound } from '../../lib/errors.js';
import { ListQuery, mapPage, PagedList } from '../../lib/paging.js';
import { Params } from '../../lib/schemas.js';
import { requireOrgMember } from '../../permissions/organization.js';
import { presentOrganization } from './present.js';
import { findOrganizationForViewer, listOrganizationsOfUser, organizationsWithOwnedTeam } from './repo.js';
import { CreateOrganizationBody, Organization, PingResponse, UpdateOrganizationBody } from './schemas.js';
import { createOrganization, pingOrganization, updateOrganization } from './service.js';

const OrgParams = Type.Object({ organizationId: Params.organizationId });
const tags = ['organizations'];

export default async function organizationRoutes(app: App) {
  /** Loads the organization as the caller sees it; 404 for non-members and guests. */
  async function loadVisible(organizationId: string, userId: string) {
    const membership = await requireOrgMember(app.db, organizationId, userId);
    const found = await findOrganizationForViewer(app.db, organizationId, userId);
    if (!found) throw notFound(`organization ${organizationId} not found`);
    return { membership, org: found.org, viewer: { role: membership.role, ownsTeam: found.ownsTeam } };
  }

  app.get(
    '/orgs',
    {
      config: { scope: 'organization:read', cacheable: true },
      schema: {
        operationId: 'listOrganizationsForAuthenticatedUser',
        tags,
        querystring: ListQuery,
        response: { 200: PagedList(Organization) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const page = await listOrganizationsOfUser(app.db, user.id, request.query);
      // The caller's memberships decide which organizations (ordered by what never changes), each
      // shows its own row and the caller's teams there.
      dependsOn(userScope(user.id), ...page.items.map((org) => organizationScope(org.id)));
      const owned = await organizationsWithOwnedTeam(
        app.db,
        user.id,
        page.items.map((o) => o.id),
      );
      return mapPage(page, (org) =>
        presentOrganization(org, { role: org.member_role as never, ownsTeam: owned.has(org.id) }, app.urls),
      );
    },
  );

  app.post(
    '/orgs',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'createOrganization',
        tags,
        body: CreateOrganizationBody,
        response: { 201: Organization },
      },
    },
    async (request, reply) => {
      const org = await createOrganization(serviceContext(app, request), request.body);
      reply.code(201).header('location', app.urls.api(`/orgs/${org.id}`));
      return presentOrganization(org, { role: 'admin', ownsTeam: false }, app.urls);
    },
  );

  app.get(
    '/orgs/:organizationId',
    {
      config: { scope: 'organization:read', cacheable: true },
      schema: { operationId: 'getOrganizationById', tags, params: OrgParams, response: { 200: Organization } },
    },
    async (request) => {
      readsParts(); // the organization's base only (db/scope-parts.ts)
      const { org, viewer } = await loadVisible(request.params.organizationId, caller(request).user.id);
      return presentOrganization(org, viewer, app.urls);
    },
  );

  app.patch(
    '/orgs/:organizationId',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'updateOrganizationById',
        tags,
        params: OrgParams,
        body: UpdateOrganizationBody,
        response: { 200: Organization },
      },
    },
    async (request) => {
      await updateOrganization(serviceContext(app, request), request.params.organizationId, request.body);
      const { org, viewer } = await loadVisible(request.params.organizationId, caller(request).user.id);
      return presentOrganization(org, viewer, app.urls);
    },
  );

  app.post(
    '/orgs/:organizationId/ping',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'updateOrganizationMemberLastSeenAt',
        tags,
        params: OrgParams,
        response: { 200: PingResponse },
      },
    },
    async (request) => {
      const claims = await pingOrganization(serviceContext(app, request), request.params.organizationId);
      return { serviceVisitorClaims: claims, gitbookVisitorClaims: claims };
    },
  );
}
