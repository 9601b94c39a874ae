/** Site spaces: list, add, change (path, condition), remove and move the spaces published on a site. */

import type { SiteRow } from '../../../db/schema.js';
import type { App } from '../../../http/app.js';
import { caller } from '../../../http/auth.js';
import { serviceContext } from '../../../http/service-context.js';
import { PagedList, paginateArray } from '../../../lib/paging.js';
import { NoContent, type Role } from '../../../lib/schemas.js';
import { authorizeSite } from '../../../permissions/sites.js';
import { siteSpaceIn } from '../../../sites/site-spaces.js';
import { loadSiteView, resolveShareKey } from '../shared/context.js';
import { presentSiteSpace } from '../shared/present.js';
import { SiteParams, SiteSpace, SiteSpaceParams } from '../shared/schemas.js';
import {
  AddSiteSpaceBody,
  DuplicateSiteSpaceBody,
  ListSiteSpacesQuery,
  MoveSiteSpaceBody,
  UpdateSiteSpaceBody,
} from './schemas.js';
import { addSpaceToSite, deleteSiteSpace, duplicateSiteSpace, moveSiteSpace, updateSiteSpace } from './service.js';

const tags = ['site-spaces'];

export default async function siteSpaceRoutes(app: App) {
  async function presentOne(site: SiteRow, userId: string, role: Role, id: string) {
    const view = await loadSiteView(app, site, { userId, role });
    return presentSiteSpace(siteSpaceIn(view.structure, id), view);
  }

  app.get(
    '/orgs/:organizationId/sites/:siteId/site-spaces',
    {
      config: { scope: 'site:read', cacheable: true },
      schema: {
        operationId: 'listSiteSpaces',
        tags,
        params: SiteParams,
        querystring: ListSiteSpacesQuery,
        response: { 200: PagedList(SiteSpace) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { organizationId, siteId } = request.params;
      const { site, role } = await authorizeSite(app.db, user.id, organizationId, siteId, 'read', 'read it');
      const shareKey = await resolveShareKey(app.db, site.id, request.query.shareKey);
      const view = await loadSiteView(app, site, { userId: user.id, role: role }, shareKey);
      const wanted = request.query.default;
      const rows = view.structure.siteSpaces.filter((s) => wanted === undefined || (s.is_default === 1) === wanted);
      const page = paginateArray(rows, (s) => s.id, request.query);
      return { ...page, items: page.items.map((s) => presentSiteSpace(s, view)) };
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/site-spaces',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'addSpaceToSite',
        tags,
        params: SiteParams,
        body: AddSiteSpaceBody,
        response: { 201: SiteSpace },
      },
    },
    async (request, reply) => {
      const { user } = caller(request);
      const { organizationId, siteId } = request.params;
      const added = await addSpaceToSite(serviceContext(app, request), organizationId, siteId, request.body);
      const { site, role, siteSpaceId } = added;
      reply
        .code(201)
        .header('location', app.urls.api(`/orgs/${organizationId}/sites/${site.id}/site-spaces/${siteSpaceId}`));
      return presentOne(site, user.id, role, siteSpaceId);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteSpaceById',
        tags,
        params: SiteSpaceParams,
        body: UpdateSiteSpaceBody,
        response: { 200: SiteSpace },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { organizationId, siteId, siteSpaceId } = request.params;
      const ctx = serviceContext(app, request);
      const { site, role } = await updateSiteSpace(ctx, organizationId, siteId, siteSpaceId, request.body);
      return presentOne(site, user.id, role, siteSpaceId);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId',
    {
      config: { scope: 'site:write' },
      schema: { operationId: 'deleteSiteSpaceById', tags, params: SiteSpaceParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      await deleteSiteSpace(serviceContext(app, request), organizationId, siteId, siteSpaceId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/move',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'moveSiteSpace',
        tags,
        params: SiteSpaceParams,
        body: MoveSiteSpaceBody,
        response: { 200: SiteSpace },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { organizationId, siteId, siteSpaceId } = request.params;
      const ctx = serviceContext(app, request);
      const { site, role } = await moveSiteSpace(ctx, organizationId, siteId, siteSpaceId, request.body);
      return presentOne(site, user.id, role, siteSpaceId);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/duplicate',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'duplicateSiteSpace',
        tags: [...tags, 'spaces'],
        params: SiteSpaceParams,
        body: DuplicateSiteSpaceBody,
        response: { 201: SiteSpace },
      },
    },
    async (request, reply) => {
      const { user } = caller(request);
      const { organizationId, siteId, siteSpaceId } = request.params;
      const added = await duplicateSiteSpace(serviceContext(app, request), organizationId, siteId, siteSpaceId);
      reply
        .code(201)
        .header('location', app.urls.api(`/orgs/${organizationId}/sites/${siteId}/site-spaces/${added.siteSpaceId}`));
      return presentOne(added.site, user.id, added.role, added.siteSpaceId);
    },
  );
}
