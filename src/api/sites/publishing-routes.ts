/**
 * Publishing operations of a site: its navigation structure (`getSiteStructure`), a one-hour preview
 * link (`getSitePublishingPreviewById`), and its visitor authentication (`…PublishingAuthById`:
 * the key visitors' JWTs are signed with, and where visitors without one are sent). Reading the
 * structure or a preview link needs to see the site; the authentication settings show a secret, so
 * they are for site admins.
 */
import { Type } from 'typebox';
import { signingKey } from '../../core/keys.js';
import { secretsKey } from '../../core/secrets.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { badRequest } from '../../lib/errors.js';
import { authorizeSiteOf } from '../../permissions/sites.js';
import { previewToken } from '../../published/access.js';
import { loadSiteOrganization } from '../../sites/repo.js';
import { loadStructure } from '../../sites/structure.js';
import { PublishedUrls } from '../../sites/urls.js';
import { type VisitorAuthSettings, visitorAuthOf } from '../../sites/visitor-auth.js';
import { PreviewQuery, PreviewUrl, PublishingAuth, UpdatePublishingAuthBody } from './publishing-schemas.js';
import { SiteStructure } from './schemas.js';
import { regenerateSitePublishingAuth, updateSitePublishingAuth } from './service.js';
import { loadSiteView, resolveShareKey } from './shared/context.js';
import { presentStructure } from './shared/present.js';
import { ShareKeyQuery, SiteParams } from './shared/schemas.js';

function presentAuth(settings: VisitorAuthSettings) {
  return {
    object: 'publishing-auth' as const,
    backend: settings.backend,
    privateKey: settings.privateKey,
    ...(settings.fallbackUrl ? { fallbackURL: settings.fallbackUrl } : {}),
    ...(settings.logoutUrl ? { logoutURL: settings.logoutUrl } : {}),
  };
}

export default async function publishingRoutes(app: App) {
  app.addSchema(PublishingAuth);
  const key = () => secretsKey(app.db, app.config.secretsKey, app.log);
  const authTags = ['site-publishing-auth'];

  app.get(
    '/orgs/:organizationId/sites/:siteId/structure',
    {
      config: { scope: 'site:read', cacheable: true },
      schema: {
        operationId: 'getSiteStructure',
        tags: ['site-structure'],
        params: SiteParams,
        querystring: Type.Object(ShareKeyQuery),
        response: { 200: SiteStructure },
      },
    },
    async (request) => {
      const { site, role } = await authorizeSiteOf(app.db, request, 'read', 'read it');
      const shareKey = await resolveShareKey(app.db, site.id, request.query.shareKey);
      const view = await loadSiteView(app, site, { userId: caller(request).user.id, role }, shareKey);
      return presentStructure(view);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/publishing/preview',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getSitePublishingPreviewById',
        tags: ['site-preview'],
        description:
          'A link (valid one hour) that opens the site as readers will see it, whether or not it is published ' +
          'and whatever its visibility.',
        params: SiteParams,
        querystring: PreviewQuery,
        response: { 200: PreviewUrl },
      },
    },
    async (request) => {
      const { site } = await authorizeSiteOf(app.db, request, 'read', 'preview it');
      const [org, structure] = await Promise.all([
        loadSiteOrganization(app.db, site.organization_id),
        loadStructure(app.db, site.id),
      ]);
      const urls = new PublishedUrls(site, org, app.urls);
      const { siteSpace: siteSpaceId, target } = request.query;
      let address = urls.base;
      if (siteSpaceId !== undefined) {
        const siteSpace = structure.siteSpaceById.get(siteSpaceId);
        if (!siteSpace) throw badRequest(`querystring/siteSpace: ${siteSpaceId} is not a site space of this site`);
        const section = siteSpace.section_id ? structure.sectionById.get(siteSpace.section_id) : null;
        address = urls.targetOfSiteSpace(siteSpace, section);
      }
      if (target !== undefined) {
        const absolute = target.startsWith('/') ? `${urls.base}${target}` : target;
        if (absolute !== urls.base && !absolute.startsWith(`${urls.base}/`) && !absolute.startsWith(`${urls.base}?`)) {
          throw badRequest(`querystring/target must be an address on the site (${urls.base}…)`);
        }
        address = absolute;
      }
      const token = await previewToken(await signingKey(app.db), site.id, siteSpaceId);
      const url = new URL(address);
      url.searchParams.set('preview', token);
      return { url: url.href };
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/publishing/auth',
    {
      config: { scope: 'site:auth:read' },
      schema: {
        operationId: 'getSitePublishingAuthById',
        tags: authTags,
        params: SiteParams,
        response: { 200: Type.Ref('SitePublishingAuth') },
      },
    },
    async (request) => {
      const { site } = await authorizeSiteOf(app.db, request, 'admin', 'read its visitor authentication');
      return presentAuth(await visitorAuthOf(app.db, site.id, await key()));
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/publishing/auth',
    {
      config: { scope: 'site:auth:write' },
      schema: {
        operationId: 'updateSitePublishingAuthById',
        tags: authTags,
        params: SiteParams,
        body: UpdatePublishingAuthBody,
        response: { 200: Type.Ref('SitePublishingAuth') },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { backend, fallbackURL, logoutURL } = request.body;
      const patch = { backend, fallbackUrl: fallbackURL, logoutUrl: logoutURL };
      return presentAuth(
        await updateSitePublishingAuth(serviceContext(app, request), organizationId, siteId, patch, key),
      );
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/publishing/auth/regenerate',
    {
      config: { scope: 'site:auth:write' },
      schema: {
        operationId: 'regenerateSitePublishingAuthById',
        tags: authTags,
        params: SiteParams,
        response: { 200: Type.Ref('SitePublishingAuth') },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return presentAuth(await regenerateSitePublishingAuth(serviceContext(app, request), organizationId, siteId, key));
    },
  );
}
