/**
 * Share links of a site: secret keys that open a `share-link` site. Listing them reveals the keys, so
 * every operation here is for organization admins.
 */

import type { SiteRow } from '../../../db/schema.js';
import type { App } from '../../../http/app.js';
import { serviceContext } from '../../../http/service-context.js';
import { mapPage, PagedList } from '../../../lib/paging.js';
import { NoContent } from '../../../lib/schemas.js';
import { authorizeSiteOf } from '../../../permissions/sites.js';
import { loadSiteOrganization } from '../../../sites/repo.js';
import { PublishedUrls } from '../../../sites/urls.js';
import { SiteParams } from '../shared/schemas.js';
import { presentShareLink } from './present.js';
import { listShareLinks } from './repo.js';
import {
  CreateShareLinkBody,
  ListShareLinksQuery,
  ShareLink,
  ShareLinkParams,
  UpdateShareLinkBody,
} from './schemas.js';
import { createSiteShareLink, deleteSiteShareLink, updateSiteShareLink } from './service.js';

const tags = ['share-links'];

export default async function shareLinkRoutes(app: App) {
  async function urlsOf(site: SiteRow) {
    return new PublishedUrls(site, await loadSiteOrganization(app.db, site.organization_id), app.urls);
  }

  app.get(
    '/orgs/:organizationId/sites/:siteId/share-links',
    {
      config: { scope: 'site:auth:read' },
      schema: {
        operationId: 'listSiteShareLinks',
        tags,
        params: SiteParams,
        querystring: ListShareLinksQuery,
        response: { 200: PagedList(ShareLink) },
      },
    },
    async (request) => {
      const { site } = await authorizeSiteOf(app.db, request, 'admin', 'manage its share links');
      const urls = await urlsOf(site);
      return mapPage(await listShareLinks(app.db, site.id, request.query), (row) => presentShareLink(row, urls));
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/share-links',
    {
      config: { scope: 'site:auth:write' },
      schema: {
        operationId: 'createSiteShareLink',
        tags,
        params: SiteParams,
        body: CreateShareLinkBody,
        response: { 201: ShareLink },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(app, request);
      const { site, link } = await createSiteShareLink(ctx, organizationId, siteId, request.body.name);
      reply
        .code(201)
        .header('location', app.urls.api(`/orgs/${organizationId}/sites/${site.id}/share-links/${link.id}`));
      return presentShareLink(link, await urlsOf(site));
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId',
    {
      config: { scope: 'site:auth:write' },
      schema: {
        operationId: 'updateSiteShareLinkById',
        tags,
        params: ShareLinkParams,
        body: UpdateShareLinkBody,
        response: { 200: ShareLink },
      },
    },
    async (request) => {
      const { organizationId, siteId, shareLinkId } = request.params;
      const ctx = serviceContext(app, request);
      const { site, link } = await updateSiteShareLink(ctx, organizationId, siteId, shareLinkId, request.body);
      return presentShareLink(link, await urlsOf(site));
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId',
    {
      config: { scope: 'site:auth:write' },
      schema: { operationId: 'deleteSiteShareLinkById', tags, params: ShareLinkParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { organizationId, siteId, shareLinkId } = request.params;
      await deleteSiteShareLink(serviceContext(app, request), organizationId, siteId, shareLinkId);
      return reply.code(204).send(null);
    },
  );
}
