/** Customization settings of a site, and the overrides of one site space. */
import { Type } from 'typebox';
import type { App } from '../../../http/app.js';
import { serviceContext } from '../../../http/service-context.js';
import { notFound } from '../../../lib/errors.js';
import { NoContent } from '../../../lib/schemas.js';
import { authorizeSiteOf } from '../../../permissions/sites.js';
import { siteCustomization, siteSpaceCustomization } from '../../../sites/customization.js';
import { Customization, CustomizationInput, CustomizationOverride } from '../../../sites/customization-schema.js';
import { SiteParams, SiteSpaceParams } from '../shared/schemas.js';
import { findSiteSpaceOf } from './repo.js';
import { deleteSiteSpaceCustomization, overrideSiteSpaceCustomization, updateSiteCustomization } from './service.js';

const tags = ['sites'];
/** Accepted for compatibility: the official document deprecates it; settings are never masked here. */
const CustomizationQuery = Type.Object({ unmasked: Type.Optional(Type.Boolean()) });

export default async function customizationRoutes(app: App) {
  async function siteSpaceOf(siteId: string, siteSpaceId: string) {
    const row = await findSiteSpaceOf(app.db, siteId, siteSpaceId);
    if (!row) throw notFound(`site space ${siteSpaceId} not found`);
    return row;
  }

  app.get(
    '/orgs/:organizationId/sites/:siteId/customization',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getSiteCustomizationById',
        tags,
        params: SiteParams,
        querystring: CustomizationQuery,
        response: { 200: Customization },
      },
    },
    async (request) => {
      const { site } = await authorizeSiteOf(app.db, request, 'read', 'read it');
      return siteCustomization(site);
    },
  );

  app.put(
    '/orgs/:organizationId/sites/:siteId/customization',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteCustomizationById',
        tags,
        params: SiteParams,
        body: CustomizationInput,
        response: { 200: Customization },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(app, request);
      return siteCustomization(await updateSiteCustomization(ctx, organizationId, siteId, request.body));
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getSiteSpaceCustomizationById',
        tags,
        params: SiteSpaceParams,
        querystring: CustomizationQuery,
        response: { 200: Customization },
      },
    },
    async (request) => {
      const { siteSpaceId } = request.params;
      const { site } = await authorizeSiteOf(app.db, request, 'read', 'read it');
      return siteSpaceCustomization(site, await siteSpaceOf(site.id, siteSpaceId));
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'overrideSiteSpaceCustomizationById',
        tags,
        params: SiteSpaceParams,
        body: CustomizationOverride,
        response: { 200: Customization },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const ctx = serviceContext(app, request);
      const { site, customization } = await overrideSiteSpaceCustomization(
        ctx,
        organizationId,
        siteId,
        siteSpaceId,
        request.body,
      );
      return siteSpaceCustomization(site, { customization });
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'deleteSiteSpaceCustomizationById',
        tags,
        params: SiteSpaceParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      await deleteSiteSpaceCustomization(serviceContext(app, request), organizationId, siteId, siteSpaceId);
      return reply.code(204).send(null);
    },
  );
}
