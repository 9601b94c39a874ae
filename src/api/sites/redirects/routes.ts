/** Site redirects: list, create, change and delete them; resolve a source to its published target. */
import type { App } from '../../../http/app.js';
import { serviceContext } from '../../../http/service-context.js';
import { notFound } from '../../../lib/errors.js';
import { mapPage, PagedList } from '../../../lib/paging.js';
import { NoContent } from '../../../lib/schemas.js';
import { authorizeSiteOf } from '../../../permissions/sites.js';
import { loadSiteOrganization } from '../../../sites/repo.js';
import { loadStructure } from '../../../sites/structure.js';
import { PublishedUrls } from '../../../sites/urls.js';
import { resolveShareKey } from '../shared/context.js';
import { SiteParams } from '../shared/schemas.js';
import { presentRedirect, redirectTarget } from './present.js';
import { findRedirectBySource, listRedirects } from './repo.js';
import {
  BulkRedirectsBody,
  BulkRedirectsResult,
  CreateRedirectBody,
  ListRedirectsQuery,
  RedirectParams,
  ResolvedRedirect,
  ResolveRedirectQuery,
  SiteRedirect,
  UpdateRedirectBody,
} from './schemas.js';
import { bulkUpsertSiteRedirects, createSiteRedirect, deleteSiteRedirect, updateSiteRedirect } from './service.js';

const tags = ['site-redirects'];

export default async function siteRedirectRoutes(app: App) {
  app.get(
    '/orgs/:organizationId/sites/:siteId/redirects',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'listSiteRedirects',
        tags,
        params: SiteParams,
        querystring: ListRedirectsQuery,
        response: { 200: PagedList(SiteRedirect) },
      },
    },
    async (request) => {
      const { site } = await authorizeSiteOf(app.db, request, 'read', 'read it');
      return mapPage(await listRedirects(app.db, site.id, request.query), presentRedirect);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/redirects',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'createSiteRedirect',
        tags,
        params: SiteParams,
        body: CreateRedirectBody,
        response: { 201: SiteRedirect },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const row = await createSiteRedirect(serviceContext(app, request), organizationId, siteId, request.body);
      reply.code(201).header('location', app.urls.api(`/orgs/${organizationId}/sites/${siteId}/redirects/${row.id}`));
      return presentRedirect(row);
    },
  );

  app.put(
    '/orgs/:organizationId/sites/:siteId/redirects',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'bulkUpsertSiteRedirects',
        tags,
        params: SiteParams,
        body: BulkRedirectsBody,
        response: { 200: BulkRedirectsResult },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(app, request);
      return { results: await bulkUpsertSiteRedirects(ctx, organizationId, siteId, request.body.redirects) };
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/redirects/:siteRedirectId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteRedirectById',
        tags,
        params: RedirectParams,
        body: UpdateRedirectBody,
        response: { 200: SiteRedirect },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteRedirectId } = request.params;
      const ctx = serviceContext(app, request);
      return presentRedirect(await updateSiteRedirect(ctx, organizationId, siteId, siteRedirectId, request.body));
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/redirects/:siteRedirectId',
    {
      config: { scope: 'site:write' },
      schema: { operationId: 'deleteSiteRedirectById', tags, params: RedirectParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteRedirectId } = request.params;
      await deleteSiteRedirect(serviceContext(app, request), organizationId, siteId, siteRedirectId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/redirect',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getSiteRedirectBySource',
        tags,
        params: SiteParams,
        querystring: ResolveRedirectQuery,
        response: { 200: ResolvedRedirect },
      },
    },
    async (request) => {
      const { site } = await authorizeSiteOf(app.db, request, 'read', 'read it');
      const shareKey = await resolveShareKey(app.db, site.id, request.query.shareKey);
      const row = await findRedirectBySource(app.db, site.id, request.query.source);
      if (!row) throw notFound(`no redirect from ${request.query.source} on this site`);
      const [org, structure] = await Promise.all([
        loadSiteOrganization(app.db, site.organization_id),
        loadStructure(app.db, site.id),
      ]);
      const target = redirectTarget(row, structure, new PublishedUrls(site, org, app.urls, shareKey));
      if (!target) throw notFound(`the destination of the redirect from ${row.source} no longer exists`);
      return { redirect: presentRedirect(row), target };
    },
  );
}
