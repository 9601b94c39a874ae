/**
 * Share links of a site: secret keys that open a `share-link` site. Listing them reveals the keys, so
 * every operation here is for organization admins.
 */
import type { App } from '../../../core/app.js';
import { notFound } from '../../../core/errors.js';
import { mapPage, PagedList } from '../../../core/paging.js';
import { NoContent } from '../../../core/schemas.js';
import type { SiteRow } from '../../../db/schema.js';
import { authorizeSiteOf } from '../../../permissions/sites.js';
import { loadSiteOrganization } from '../../../sites/repo.js';
import { PublishedUrls } from '../../../sites/urls.js';
import { SiteParams } from '../shared/schemas.js';
import { presentShareLink } from './present.js';
import { createShareLink, deleteShareLink, findShareLink, listShareLinks, updateShareLink } from './repo.js';
import {
  CreateShareLinkBody,
  ListShareLinksQuery,
  ShareLink,
  ShareLinkParams,
  UpdateShareLinkBody,
} from './schemas.js';

const tags = ['share-links'];
const base = '/orgs/:organizationId/sites/:siteId/share-links';

export default async function shareLinkRoutes(app: App) {
  async function urlsOf(site: SiteRow) {
    return new PublishedUrls(site, await loadSiteOrganization(app.db, site.organization_id), app.urls);
  }

  async function existing(siteId: string, id: string) {
    const row = await findShareLink(app.db, siteId, id);
    if (!row) throw notFound(`share link ${id} not found`);
    return row;
  }

  app.get(
    base,
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
    base,
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
      const { organizationId } = request.params;
      const { site } = await authorizeSiteOf(app.db, request, 'admin', 'manage its share links');
      const row = await createShareLink(app.db, site.id, request.body.name);
      reply
        .code(201)
        .header('location', app.urls.api(`/orgs/${organizationId}/sites/${site.id}/share-links/${row.id}`));
      return presentShareLink(row, await urlsOf(site));
    },
  );

  app.patch(
    `${base}/:shareLinkId`,
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
      const { shareLinkId } = request.params;
      const { site } = await authorizeSiteOf(app.db, request, 'admin', 'manage its share links');
      await updateShareLink(app.db, (await existing(site.id, shareLinkId)).id, request.body);
      return presentShareLink(await existing(site.id, shareLinkId), await urlsOf(site));
    },
  );

  app.delete(
    `${base}/:shareLinkId`,
    {
      config: { scope: 'site:auth:write' },
      schema: { operationId: 'deleteSiteShareLinkById', tags, params: ShareLinkParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { shareLinkId } = request.params;
      const { site } = await authorizeSiteOf(app.db, request, 'admin', 'manage its share links');
      await deleteShareLink(app.db, (await existing(site.id, shareLinkId)).id);
      return reply.code(204).send(null);
    },
  );
}
