/**
 * Site insights: `trackEventsInSiteById` records events of a published site, `aggregateSiteEvents`
 * counts them. The official document gives the tracking operation no security of its own, so it
 * takes the document's default (a user or integration token); recording analytics of reading is not
 * a change of the site, so it needs what reading the site needs (`site:read`, organization members).
 * Events are kept `INSIGHTS_RETENTION_DAYS` (every process with a job worker purges older ones hourly:
 * src/background.ts).
 */
import type { App } from '../../../http/app.js';
import { serviceContext } from '../../../http/service-context.js';
import { AggregateBody, AggregateResult, type InsightEventInput, TrackEventsBody } from '../../../insights/schemas.js';
import { aggregateSiteEvents, recordSiteEvents } from '../../../insights/service.js';
import { notFound } from '../../../lib/errors.js';
import { NoContent } from '../../../lib/schemas.js';
import { authorizeSiteOf } from '../../../permissions/sites.js';
import { SiteParams } from '../shared/schemas.js';
import { presentAggregation } from './present.js';

const tags = ['site-insights'];
const base = '/orgs/:organizationId/sites/:siteId/insights/events';

export default async function siteInsightsRoutes(app: App) {
  app.post(
    base,
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'trackEventsInSiteById',
        summary: 'Track site events',
        tags,
        params: SiteParams,
        body: TrackEventsBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { site } = await authorizeSiteOf(app.db, request, 'read', 'track its events');
      // Events are of a published site: an unpublished one has no visitors to track.
      if (!site.published) throw notFound(`site ${site.id} is not published`);
      await recordSiteEvents(serviceContext(app, request), site, request.body.events as InsightEventInput[]);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/aggregate`,
    {
      config: { scope: 'site:insights:read' },
      schema: {
        operationId: 'aggregateSiteEvents',
        summary: "Query a site's analytics events",
        tags,
        params: SiteParams,
        body: AggregateBody,
        response: { 200: AggregateResult },
      },
    },
    async (request) => {
      const { site } = await authorizeSiteOf(app.db, request, 'read', 'read its insights');
      const { columns, rows } = await aggregateSiteEvents(app.db, site.id, request.body);
      return presentAggregation(columns, rows);
    },
  );
}
