/**
 * The published site profile: the site, its structure (sections and groups in order when the site
 * has sections, its site spaces otherwise) and its complete customization settings, per site and per
 * site space. Given to every member who sees the site; the `urls.published` in it appear once the site
 * is published, and for a `share-link` site carry the share key when one is passed.
 */
import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { authorizeSite } from '../../permissions/sites.js';
import { siteCustomization, siteSpaceCustomization } from '../../sites/customization.js';
import { presentSite } from './present.js';
import { PublishedSite } from './schemas.js';
import { loadSiteView, resolveShareKey } from './shared/context.js';
import { presentStructure } from './shared/present.js';
import { ShareKeyQuery, SiteParams } from './shared/schemas.js';

export default async function publishedRoutes(app: App) {
  app.get(
    '/orgs/:organizationId/sites/:siteId/published',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getPublishedContentSite',
        tags: ['sites'],
        params: SiteParams,
        querystring: Type.Object(ShareKeyQuery),
        response: { 200: PublishedSite },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { organizationId, siteId } = request.params;
      const { site, role } = await authorizeSite(app.db, user.id, organizationId, siteId, 'read', 'read it');
      const shareKey = await resolveShareKey(app.db, site.id, request.query.shareKey);
      const view = await loadSiteView(app, site, { userId: user.id, role }, shareKey);
      const { structure } = view;
      return {
        object: 'published-content-site' as const,
        site: presentSite(site, {
          org: view.org,
          role,
          siteSpaces: structure.siteSpaces.length,
          published: view.urls,
          urls: app.urls,
        }),
        structure: presentStructure(view, { withDrafts: false }),
        customizations: {
          site: siteCustomization(site),
          siteSpaces: Object.fromEntries(structure.siteSpaces.map((s) => [s.id, siteSpaceCustomization(site, s)])),
        },
        scripts: [],
      };
    },
  );
}
