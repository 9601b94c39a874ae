/**
 * Partner ads: a site admin submits a published public site for ads review
 * (`POST /orgs/{organizationId}/sites/{siteId}/ads`); the ad partner, holding a partner key besides
 * its bearer token, lists the sites by review status and records its decision. The decision shows
 * in the site's `ads` field.
 */
import { Type } from 'typebox';
import type { App } from '../../../http/app.js';
import { serviceContext } from '../../../http/service-context.js';
import { PagedList } from '../../../lib/paging.js';
import { NoContent } from '../../../lib/schemas.js';
import { directBase } from '../../../sites/urls.js';
import { SiteParams } from '../shared/schemas.js';
import { requirePartnerKey } from './partner.js';
import { listAdsSites } from './repo.js';
import { AdsSiteItem, ListAdsSitesQuery, PartnerUpdateBody, SubmitAdsBody } from './schemas.js';
import { recordAdsDecision, updateSiteAds } from './service.js';

const tags = ['ads'];
const PartnerHeaders = Type.Object({ 'x-service-partner-key': Type.Optional(Type.String()) });

export default async function adsRoutes(app: App) {
  app.post(
    '/orgs/:organizationId/sites/:siteId/ads',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteAdsById',
        tags,
        params: SiteParams,
        body: SubmitAdsBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      await updateSiteAds(serviceContext(app, request), organizationId, siteId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/ads/sites',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'adsListSites',
        tags,
        headers: PartnerHeaders,
        querystring: ListAdsSitesQuery,
        response: { 200: PagedList(AdsSiteItem) },
      },
    },
    async (request) => {
      requirePartnerKey(request, app.config.partnerKeys);
      const page = await listAdsSites(app.db, request.query.status ?? 'in-review', request.query);
      return {
        ...page,
        items: page.items.map((r) => {
          const org = { id: r.org_id, hostname: r.org_hostname, custom_hostname: r.org_custom_hostname };
          return {
            id: r.id,
            url: r.proxy ? `https://${r.proxy}` : directBase(r, org, app.urls),
            email: r.ads_email ?? '',
            topic: r.ads_topic as 'webdev' | 'crypto',
            status: r.ads_status as 'in-review' | 'live' | 'rejected',
            ...(r.ads_status === 'live' && r.ads_zone_id ? { zoneId: r.ads_zone_id } : {}),
            ...(r.ads_status === 'rejected' && r.ads_reason ? { reason: r.ads_reason } : {}),
          };
        }),
      };
    },
  );

  app.patch(
    '/ads/sites/:siteId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'adsUpdateSite',
        tags,
        headers: PartnerHeaders,
        params: Type.Object({ siteId: Type.String({ minLength: 1 }) }),
        body: PartnerUpdateBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      requirePartnerKey(request, app.config.partnerKeys);
      await recordAdsDecision(serviceContext(app, request), request.params.siteId, request.body);
      return reply.code(204).send(null);
    },
  );
}
