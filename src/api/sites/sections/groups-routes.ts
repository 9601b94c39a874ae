/** Site section groups: list, add, change, delete and move them; add sections to them and take them out. */

import type { SiteRow } from '../../../db/schema.js';
import type { App } from '../../../http/app.js';
import { caller } from '../../../http/auth.js';
import { serviceContext } from '../../../http/service-context.js';
import { PagedList, paginateArray } from '../../../lib/paging.js';
import { NoContent, type Role } from '../../../lib/schemas.js';
import { authorizeSite } from '../../../permissions/sites.js';
import { groupIn } from '../../../sites/sections.js';
import { loadSiteView } from '../shared/context.js';
import { presentGroup } from '../shared/present.js';
import { SiteParams, SiteSectionGroup } from '../shared/schemas.js';
import {
  AddGroupBody,
  AddSectionToGroupBody,
  GroupParams,
  GroupSectionParams,
  ListGroupsQuery,
  MoveGroupBody,
  UpdateGroupBody,
} from './schemas.js';
import {
  addSectionGroup,
  addSectionToSectionGroup,
  deleteSectionGroup,
  moveSectionGroup,
  removeSectionFromSectionGroup,
  updateSectionGroup,
} from './service.js';

const tags = ['site-section-groups'];

export default async function groupRoutes(app: App) {
  async function presentOne(site: SiteRow, userId: string, role: Role, id: string) {
    const view = await loadSiteView(app, site, { userId, role });
    return presentGroup(groupIn(view.structure, id), view);
  }

  app.get(
    '/orgs/:organizationId/sites/:siteId/section-groups',
    {
      config: { scope: 'site:read', cacheable: true },
      schema: {
        operationId: 'listSiteSectionGroups',
        tags,
        params: SiteParams,
        querystring: ListGroupsQuery,
        response: { 200: PagedList(SiteSectionGroup) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { organizationId, siteId } = request.params;
      const { site, role } = await authorizeSite(app.db, user.id, organizationId, siteId, 'read', 'read it');
      const view = await loadSiteView(app, site, { userId: user.id, role });
      const groups = view.structure.top.flatMap((item) => (item.kind === 'group' ? [item.row] : []));
      const page = paginateArray(groups, (g) => g.id, request.query);
      return { ...page, items: page.items.map((g) => presentGroup(g, view)) };
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/section-groups',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'addSectionGroupToSite',
        tags,
        params: SiteParams,
        body: AddGroupBody,
        response: { 201: SiteSectionGroup },
      },
    },
    async (request, reply) => {
      const { user } = caller(request);
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(app, request);
      const { site, role, groupId } = await addSectionGroup(ctx, organizationId, siteId, request.body);
      reply
        .code(201)
        .header('location', app.urls.api(`/orgs/${organizationId}/sites/${site.id}/section-groups/${groupId}`));
      return presentOne(site, user.id, role, groupId);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteSectionGroupById',
        tags,
        params: GroupParams,
        body: UpdateGroupBody,
        response: { 200: SiteSectionGroup },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      const ctx = serviceContext(app, request);
      const { site, role } = await updateSectionGroup(ctx, organizationId, siteId, siteSectionGroupId, request.body);
      return presentOne(site, user.id, role, siteSectionGroupId);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId',
    {
      config: { scope: 'site:write' },
      schema: { operationId: 'deleteSiteSectionGroupById', tags, params: GroupParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      await deleteSectionGroup(serviceContext(app, request), organizationId, siteId, siteSectionGroupId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections',
    {
      config: { scope: 'site:write' },
      schema: {
        // Not in the official document; named after its siblings.
        operationId: 'addSectionToSiteSectionGroup',
        tags,
        params: GroupParams,
        body: AddSectionToGroupBody,
        response: { 200: SiteSectionGroup },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      const ctx = serviceContext(app, request);
      const { sectionId } = request.body;
      const { site, role } = await addSectionToSectionGroup(ctx, organizationId, siteId, siteSectionGroupId, sectionId);
      return presentOne(site, user.id, role, siteSectionGroupId);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections/:siteSectionId',
    {
      config: { scope: 'site:write' },
      schema: {
        // Not in the official document; named after its siblings.
        operationId: 'removeSectionFromSiteSectionGroup',
        tags,
        params: GroupSectionParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId, siteSectionId } = request.params;
      const ctx = serviceContext(app, request);
      await removeSectionFromSectionGroup(ctx, organizationId, siteId, siteSectionGroupId, siteSectionId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/move',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'moveSiteSectionGroup',
        tags,
        params: GroupParams,
        body: MoveGroupBody,
        response: { 200: SiteSectionGroup },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      const ctx = serviceContext(app, request);
      const { site, role } = await moveSectionGroup(ctx, organizationId, siteId, siteSectionGroupId, request.body);
      return presentOne(site, user.id, role, siteSectionGroupId);
    },
  );
}
