/** The adaptive (visitor) schema of a site and the template conditions derived from it. */
import type { App } from '../../../http/app.js';
import { serviceContext } from '../../../http/service-context.js';
import { SiteParams } from '../shared/schemas.js';
import { SiteAdaptiveSchema, TemplateConditions, UpdateAdaptiveSchemaBody } from './schemas.js';
import { getSiteAdaptiveSchema, listSiteTemplateConditions, updateSiteAdaptiveSchema } from './service.js';

const tags = ['sites'];

export default async function siteAdaptiveRoutes(app: App) {
  app.get(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getSiteAdaptiveSchema',
        tags,
        params: SiteParams,
        response: { 200: SiteAdaptiveSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return getSiteAdaptiveSchema(serviceContext(app, request), organizationId, siteId);
    },
  );

  app.put(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteAdaptiveSchema',
        tags,
        params: SiteParams,
        body: UpdateAdaptiveSchemaBody,
        response: { 200: SiteAdaptiveSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(app, request);
      return updateSiteAdaptiveSchema(ctx, organizationId, siteId, request.body.jsonSchema);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema/template-conditions',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'listSiteAdaptiveTemplateConditions',
        tags,
        params: SiteParams,
        response: { 200: TemplateConditions },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return { items: await listSiteTemplateConditions(serviceContext(app, request), organizationId, siteId) };
    },
  );
}
