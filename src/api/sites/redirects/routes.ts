/** Site redirects: list, create, change and delete them; resolve a source to its published target. */
import type { App } from '../../../core/app.js';
import { notFound } from '../../../core/errors.js';
import { mapPage, PagedList } from '../../../core/paging.js';
import { NoContent } from '../../../core/schemas.js';
import { authorizeSiteOf } from '../../../permissions/sites.js';
import { loadSiteOrganization } from '../../../sites/repo.js';
import { loadStructure } from '../../../sites/structure.js';
import { PublishedUrls } from '../../../sites/urls.js';
import { resolveShareKey } from '../shared/context.js';
import { SiteParams } from '../shared/schemas.js';
import { presentRedirect, redirectTarget } from './present.js';
import {
  createRedirect,
  deleteRedirect,
  findRedirect,
  findRedirectBySource,
  listRedirects,
  updateRedirect,
} from './repo.js';
import {
  CreateRedirectBody,
  ListRedirectsQuery,
  RedirectParams,
  ResolvedRedirect,
  ResolveRedirectQuery,
  SiteRedirect,
  UpdateRedirectBody,
} from './schemas.js';

const tags = ['site-redirects'];
const base = '/orgs/:organizationId/sites/:siteId/redirects';

export default async function siteRedirectRoutes(app: App) {
  async function existing(siteId: string, id: string) {
    const row = await findRedirect(app.db, siteId, id);
    if (!row) throw notFound(`site redirect ${id} not found`);
    return row;
  }

  app.get(
    base,
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
    base,
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
      const { organizationId } = request.params;
      const { site } = await authorizeSiteOf(app.db, request, 'write', 'change it');
      const row = await app.db
        .transaction()
        .execute(async (trx) => createRedirect(trx, await loadStructure(trx, site.id), site.id, request.body));
      reply.code(201).header('location', app.urls.api(`/orgs/${organizationId}/sites/${site.id}/redirects/${row.id}`));
      return presentRedirect(row);
    },
  );

  app.patch(
    `${base}/:siteRedirectId`,
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
      const { siteRedirectId } = request.params;
      const { site } = await authorizeSiteOf(app.db, request, 'write', 'change it');
      const row = await existing(site.id, siteRedirectId);
      await app.db
        .transaction()
        .execute(async (trx) => updateRedirect(trx, await loadStructure(trx, site.id), row, request.body));
      return presentRedirect(await existing(site.id, siteRedirectId));
    },
  );

  app.delete(
    `${base}/:siteRedirectId`,
    {
      config: { scope: 'site:write' },
      schema: { operationId: 'deleteSiteRedirectById', tags, params: RedirectParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { siteRedirectId } = request.params;
      const { site } = await authorizeSiteOf(app.db, request, 'write', 'change it');
      await deleteRedirect(app.db, (await existing(site.id, siteRedirectId)).id);
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
