/** Site sections: list, add, change, delete and move the sections of a site. Groups: `groups.ts`. */

import type { SiteRow } from '../../../db/schema.js';
import type { App } from '../../../http/app.js';
import { caller } from '../../../http/auth.js';
import { serviceContext } from '../../../http/service-context.js';
import { PagedList, paginateArray } from '../../../lib/paging.js';
import { NoContent, type Role } from '../../../lib/schemas.js';
import { authorizeSite } from '../../../permissions/sites.js';
import { sectionIn } from '../../../sites/sections.js';
import { loadSiteView, resolveShareKey } from '../shared/context.js';
import { presentSection } from '../shared/present.js';
import { SiteParams, SiteSection } from '../shared/schemas.js';
import groupRoutes from './groups-routes.js';
import { AddSectionBody, ListSectionsQuery, MoveSectionBody, SectionParams, UpdateSectionBody } from './schemas.js';
import { addSectionToSite, deleteSiteSection, moveSiteSection, updateSiteSection } from './service.js';

const tags = ['site-sections'];

export default async function siteSectionRoutes(app: App) {
  async function presentOne(site: SiteRow, userId: string, role: Role, id: string) {
    const view = await loadSiteView(app, site, { userId, role });
    return presentSection(sectionIn(view.structure, id), view);
  }

  app.get(
    '/orgs/:organizationId/sites/:siteId/sections',
    {
      config: { scope: 'site:read', cacheable: true },
      schema: {
        operationId: 'listSiteSections',
        tags,
        params: SiteParams,
        querystring: ListSectionsQuery,
        response: { 200: PagedList(SiteSection) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { organizationId, siteId } = request.params;
      const { site, role } = await authorizeSite(app.db, user.id, organizationId, siteId, 'read', 'read it');
      const shareKey = await resolveShareKey(app.db, site.id, request.query.shareKey);
      const view = await loadSiteView(app, site, { userId: user.id, role }, shareKey);
      const page = paginateArray(view.structure.sections, (s) => s.id, request.query);
      return { ...page, items: page.items.map((s) => presentSection(s, view)) };
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/sections',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'addSectionToSite',
        tags,
        params: SiteParams,
        body: AddSectionBody,
        response: { 201: SiteSection },
      },
    },
    async (request, reply) => {
      const { user } = caller(request);
      const { organizationId, siteId } = request.params;
      const added = await addSectionToSite(serviceContext(app, request), organizationId, siteId, request.body);
      const { site, role, sectionId } = added;
      reply
        .code(201)
        .header('location', app.urls.api(`/orgs/${organizationId}/sites/${site.id}/sections/${sectionId}`));
      return presentOne(site, user.id, role, sectionId);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteSectionById',
        tags,
        params: SectionParams,
        body: UpdateSectionBody,
        response: { 200: SiteSection },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { organizationId, siteId, siteSectionId } = request.params;
      const ctx = serviceContext(app, request);
      const { site, role } = await updateSiteSection(ctx, organizationId, siteId, siteSectionId, request.body);
      return presentOne(site, user.id, role, siteSectionId);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId',
    {
      config: { scope: 'site:write' },
      schema: { operationId: 'deleteSiteSectionById', tags, params: SectionParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      await deleteSiteSection(serviceContext(app, request), organizationId, siteId, siteSectionId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId/move',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'moveSiteSection',
        tags,
        params: SectionParams,
        body: MoveSectionBody,
        response: { 200: SiteSection },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { organizationId, siteId, siteSectionId } = request.params;
      const ctx = serviceContext(app, request);
      const { site, role } = await moveSiteSection(ctx, organizationId, siteId, siteSectionId, request.body);
      return presentOne(site, user.id, role, siteSectionId);
    },
  );

  await app.register(groupRoutes);
}
