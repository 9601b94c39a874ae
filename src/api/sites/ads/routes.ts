/**
 * Partner ads: a site admin submits a published public site for ads review
 * (`POST /orgs/{organizationId}/sites/{siteId}/ads`); the ad partner, holding a partner key besides
 * its bearer token, lists the sites by review status and records its decision. The decision shows
 * in the site's `ads` field.
 */
import { Type } from 'typebox';
import type { App } from '../../../core/app.js';
import { caller } from '../../../core/auth.js';
import { badRequest, conflict, notFound } from '../../../core/errors.js';
import { PagedList, paginate } from '../../../core/paging.js';
import { NoContent } from '../../../core/schemas.js';
import { nowIso } from '../../../core/time.js';
import { authorizeSite } from '../../../permissions/sites.js';
import { directBase } from '../../../sites/urls.js';
import { SiteParams } from '../shared/schemas.js';
import { requirePartnerKey } from './partner.js';
import { AdsSiteItem, ListAdsSitesQuery, PartnerUpdateBody, SubmitAdsBody } from './schemas.js';

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
      const { user } = caller(request);
      const { organizationId, siteId } = request.params;
      const { site } = await authorizeSite(app.db, user.id, organizationId, siteId, 'admin', 'manage its ads');
      const status = request.body.status ?? 'in-review';
      if (status === 'disabled') {
        await app.db
          .updateTable('sites')
          .set({ ads_status: 'disabled', updated_at: nowIso() })
          .where('id', '=', site.id)
          .execute();
        return reply.code(204).send(null);
      }
      if (!request.body.topic) throw badRequest('body/topic is required to submit a site for ads review');
      if (site.published !== 1 || site.visibility !== 'public') {
        throw badRequest('only a published public site can be submitted for ads review');
      }
      await app.db
        .updateTable('sites')
        .set({
          ads_status: 'in-review',
          ads_topic: request.body.topic,
          ads_email: user.email,
          ads_reason: null,
          updated_at: nowIso(),
        })
        .where('id', '=', site.id)
        .execute();
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
      const query = app.db
        .selectFrom('sites')
        .innerJoin('organizations', 'organizations.id', 'sites.organization_id')
        .select([
          'sites.id',
          'sites.basename',
          'sites.hostname',
          'sites.proxy',
          'sites.ads_status',
          'sites.ads_topic',
          'sites.ads_email',
          'sites.ads_zone_id',
          'sites.ads_reason',
          'organizations.id as org_id',
          'organizations.hostname as org_hostname',
          'organizations.custom_hostname as org_custom_hostname',
        ])
        .where('sites.ads_status', '=', request.query.status ?? 'in-review')
        .where('sites.ads_topic', 'is not', null);
      const page = await paginate(query, [{ column: 'sites.id', direction: 'asc', value: (r) => r.id }], request.query);
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
      const site = await app.db
        .selectFrom('sites')
        .select(['id', 'organization_id', 'ads_topic'])
        .where('id', '=', request.params.siteId)
        .executeTakeFirst();
      if (!site) throw notFound(`site ${request.params.siteId} not found`);
      // A partner decides on sites submitted for review, never on one that did not ask for ads.
      if (!site.ads_topic) throw conflict(`site ${site.id} was not submitted for ads review`);
      const body = request.body;
      await app.db
        .updateTable('sites')
        .set({
          ads_status: body.status,
          ads_zone_id: body.status === 'live' ? body.zoneId : null,
          ads_reporting_id: body.status === 'live' ? body.reportingId : null,
          ads_reason: body.status === 'rejected' ? (body.reason ?? null) : null,
          updated_at: nowIso(),
        })
        .where('id', '=', site.id)
        .execute();
      return reply.code(204).send(null);
    },
  );
}
