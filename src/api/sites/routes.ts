/** Sites: list, create, read, update and delete them; publish and unpublish. */

import { secretsKey } from '../../core/secrets.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { notFound } from '../../lib/errors.js';
import { mapPage, PagedList } from '../../lib/paging.js';
import { NoContent, type Role } from '../../lib/schemas.js';
import { authorizeSiteOf, authorizeSites, siteRolesOf } from '../../permissions/sites.js';
import { findSite, loadSiteOrganization } from '../../sites/repo.js';
import { PublishedUrls } from '../../sites/urls.js';
import aggregateRoutes from './aggregate-routes.js';
import { presentSite } from './present.js';
import publishedRoutes from './published-routes.js';
import publishingRoutes from './publishing-routes.js';
import { countSiteSpaces, findSiteForRead, listSites } from './repo.js';
import { CreateSiteBody, ListSitesQuery, Site, UpdateSiteBody } from './schemas.js';
import siteSearchRoutes from './search-routes.js';
import { createSite, deleteSite, setSitePublished, updateSite } from './service.js';
import { OrgParams, SiteParams } from './shared/schemas.js';

const tags = ['sites'];

export default async function siteRoutes(app: App) {
  /** The Site object of `siteId`, re-read after a change. */
  async function presentOne(siteId: string, role: Role) {
    const site = await findSite(app.db, siteId);
    if (!site) throw notFound(`site ${siteId} not found`);
    const [org, counts] = await Promise.all([
      loadSiteOrganization(app.db, site.organization_id),
      countSiteSpaces(app.db, [site.id]),
    ]);
    return presentSite(site, {
      org,
      role,
      siteSpaces: counts.get(site.id) ?? 0,
      published: new PublishedUrls(site, org, app.urls),
      urls: app.urls,
    });
  }

  app.get(
    '/orgs/:organizationId/sites',
    {
      config: { scope: 'site:read', cacheable: true },
      schema: {
        operationId: 'listSites',
        tags,
        params: OrgParams,
        querystring: ListSitesQuery,
        response: { 200: PagedList(Site) },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const userId = caller(request).user.id;
      const role = await authorizeSites(app.db, userId, organizationId, 'read', 'list sites');
      const page = await listSites(app.db, organizationId, request.query);
      const { org, ...listed } = page;
      const ids = listed.items.map((s) => s.id);
      // Each site's flags show the role granted on it when that is higher than the organization role.
      const [counts, roles] = await Promise.all([
        countSiteSpaces(app.db, ids),
        siteRolesOf(app.db, userId, organizationId, ids),
      ]);
      return mapPage(listed, (site) =>
        presentSite(site, {
          org,
          role: roles.get(site.id) ?? role,
          siteSpaces: counts.get(site.id) ?? 0,
          published: new PublishedUrls(site, org, app.urls),
          urls: app.urls,
        }),
      );
    },
  );

  app.post(
    '/orgs/:organizationId/sites',
    {
      config: { scope: 'site:write' },
      schema: { operationId: 'createSite', tags, params: OrgParams, body: CreateSiteBody, response: { 201: Site } },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const key = () => secretsKey(app.db, app.config.secretsKey, request.log);
      const { site, role } = await createSite(serviceContext(app, request), organizationId, request.body, key);
      reply.code(201).header('location', app.urls.api(`/orgs/${organizationId}/sites/${site.id}`));
      return presentOne(site.id, role);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId',
    {
      config: { scope: 'site:read', cacheable: true },
      schema: { operationId: 'getSiteById', tags, params: SiteParams, response: { 200: Site } },
    },
    async (request) => {
      const { site, role } = await authorizeSiteOf(app.db, request, 'read', 'read it', findSiteForRead);
      return presentSite(site, {
        org: site.org,
        role,
        siteSpaces: site.siteSpaces,
        published: new PublishedUrls(site, site.org, app.urls),
        urls: app.urls,
      });
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteById',
        tags,
        params: SiteParams,
        body: UpdateSiteBody,
        response: { 200: Site },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { site, role } = await updateSite(serviceContext(app, request), organizationId, siteId, request.body);
      return presentOne(site.id, role);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId',
    {
      config: { scope: 'site:write' },
      schema: { operationId: 'deleteSiteById', tags, params: SiteParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      await deleteSite(serviceContext(app, request), organizationId, siteId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/publish',
    {
      config: { scope: 'site:publish' },
      schema: { operationId: 'publishSite', tags, params: SiteParams, response: { 200: Site } },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { site, role } = await setSitePublished(serviceContext(app, request), organizationId, siteId, true);
      return presentOne(site.id, role);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/unpublish',
    {
      config: { scope: 'site:publish' },
      schema: { operationId: 'unpublishSite', tags, params: SiteParams, response: { 200: Site } },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { site, role } = await setSitePublished(serviceContext(app, request), organizationId, siteId, false);
      return presentOne(site.id, role);
    },
  );

  await app.register(publishedRoutes);
  await app.register(publishingRoutes);
  await app.register(siteSearchRoutes);
  await app.register(aggregateRoutes);
}
