/** Sites: list, create, read, update and delete them; publish and unpublish. */
import type { App } from '../../core/app.js';
import { caller } from '../../core/auth.js';
import { badRequest, notFound } from '../../core/errors.js';
import { mapPage, PagedList } from '../../core/paging.js';
import { NoContent, type Role } from '../../core/schemas.js';
import { authorizeSite, authorizeSiteOf, authorizeSites, requireSpaceForSite } from '../../permissions/sites.js';
import { findSite, loadSiteOrganization } from '../../sites/repo.js';
import { makeDefaultSection } from '../../sites/sections.js';
import { makeDefaultSiteSpace } from '../../sites/site-spaces.js';
import { loadStructure } from '../../sites/structure.js';
import { PublishedUrls } from '../../sites/urls.js';
import aggregateRoutes from './aggregate-routes.js';
import { presentSite } from './present.js';
import publishedRoutes from './published-routes.js';
import publishingRoutes from './publishing-routes.js';
import { countSiteSpaces, createSite, deleteSite, listSites, updateSite } from './repo.js';
import { CreateSiteBody, ListSitesQuery, Site, UpdateSiteBody } from './schemas.js';
import siteSearchRoutes from './search-routes.js';
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
      config: { scope: 'site:read' },
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
      const role = await authorizeSites(app.db, caller(request).user.id, organizationId, 'read', 'list sites');
      const page = await listSites(app.db, organizationId, request.query);
      const [org, counts] = await Promise.all([
        loadSiteOrganization(app.db, organizationId),
        countSiteSpaces(
          app.db,
          page.items.map((s) => s.id),
        ),
      ]);
      return mapPage(page, (site) =>
        presentSite(site, {
          org,
          role,
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
      const { user } = caller(request);
      const { organizationId } = request.params;
      const role = await authorizeSites(app.db, user.id, organizationId, 'write', 'create sites');
      const spaces = [];
      // The same space named twice is added once.
      for (const spaceId of new Set(request.body.spaces ?? [])) {
        spaces.push(await requireSpaceForSite(app.db, user.id, organizationId, spaceId));
      }
      const site = await createSite(app.db, organizationId, request.body, spaces);
      reply.code(201).header('location', app.urls.api(`/orgs/${organizationId}/sites/${site.id}`));
      return presentOne(site.id, role);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId',
    {
      config: { scope: 'site:read' },
      schema: { operationId: 'getSiteById', tags, params: SiteParams, response: { 200: Site } },
    },
    async (request) => {
      const { site, role } = await authorizeSiteOf(app.db, request, 'read', 'read it');
      return presentOne(site.id, role);
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
      const { site, role } = await authorizeSiteOf(app.db, request, 'write', 'change it');
      const { defaultSiteSpace, defaultSiteSection, ...fields } = request.body;
      await app.db.transaction().execute(async (trx) => {
        await updateSite(trx, site, fields);
        const structure = await loadStructure(trx, site.id);
        if (defaultSiteSection !== undefined) {
          const section = structure.sectionById.get(defaultSiteSection);
          if (!section)
            throw badRequest(`body/defaultSiteSection: ${defaultSiteSection} is not a section of this site`);
          await makeDefaultSection(trx, section);
        }
        if (defaultSiteSpace !== undefined) {
          // At the root of a site without sections; in the default section (after the change above) otherwise.
          const defaultSection = structure.hasSections
            ? (defaultSiteSection ?? structure.sections.find((s) => s.is_default === 1)?.id ?? null)
            : null;
          const siteSpace = structure.siteSpaceById.get(defaultSiteSpace);
          if (!siteSpace || siteSpace.section_id !== defaultSection) {
            throw badRequest(
              `body/defaultSiteSpace: ${defaultSiteSpace} is not a site space of ${defaultSection ? 'the default section of this site' : 'this site'}`,
            );
          }
          await makeDefaultSiteSpace(trx, siteSpace);
        }
      });
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
      const { site } = await authorizeSiteOf(app.db, request, 'admin', 'delete it');
      await deleteSite(app.db, site.id);
      return reply.code(204).send(null);
    },
  );

  for (const [path, operationId, published] of [
    ['publish', 'publishSite', true],
    ['unpublish', 'unpublishSite', false],
  ] as const) {
    app.post(
      `/orgs/:organizationId/sites/:siteId/${path}`,
      {
        config: { scope: 'site:publish' },
        schema: { operationId, tags, params: SiteParams, response: { 200: Site } },
      },
      async (request) => {
        const { organizationId, siteId } = request.params;
        const { site, role } = await authorizeSite(
          app.db,
          caller(request).user.id,
          organizationId,
          siteId,
          'admin',
          `${path} it`,
        );
        await updateSite(app.db, site, { published });
        return presentOne(site.id, role);
      },
    );
  }

  await app.register(publishedRoutes);
  await app.register(publishingRoutes);
  await app.register(siteSearchRoutes);
  await app.register(aggregateRoutes);
}
