/** Customization settings of a site, and the overrides of one site space. */
import { Type } from 'typebox';
import type { App } from '../../../core/app.js';
import { notFound } from '../../../core/errors.js';
import { NoContent } from '../../../core/schemas.js';
import { nowIso } from '../../../core/time.js';
import { authorizeSiteOf } from '../../../permissions/sites.js';
import {
  siteCustomization,
  siteSpaceCustomization,
  storedOverride,
  storedSiteCustomization,
} from '../../../sites/customization.js';
import { Customization, CustomizationInput, CustomizationOverride } from '../../../sites/customization-schema.js';
import { findSite } from '../../../sites/repo.js';
import { SiteParams, SiteSpaceParams } from '../shared/schemas.js';

const tags = ['sites'];
/** Accepted for compatibility: the official document deprecates it; settings are never masked here. */
const CustomizationQuery = Type.Object({ unmasked: Type.Optional(Type.Boolean()) });

export default async function customizationRoutes(app: App) {
  async function siteSpaceOf(siteId: string, siteSpaceId: string) {
    const row = await app.db
      .selectFrom('site_spaces')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('id', '=', siteSpaceId)
      .executeTakeFirst();
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
      const { site } = await authorizeSiteOf(app.db, request, 'write', 'change it');
      const customization = storedSiteCustomization(request.body);
      await app.db
        .updateTable('sites')
        .set({ customization, updated_at: nowIso() })
        .where('id', '=', site.id)
        .execute();
      return siteCustomization({ customization });
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
      const { siteSpaceId } = request.params;
      const { site } = await authorizeSiteOf(app.db, request, 'write', 'change it');
      const siteSpace = await siteSpaceOf(site.id, siteSpaceId);
      const customization = storedOverride(siteSpace.customization, request.body);
      await app.db
        .updateTable('site_spaces')
        .set({ customization, updated_at: nowIso() })
        .where('id', '=', siteSpace.id)
        .execute();
      const fresh = (await findSite(app.db, site.id)) ?? site;
      return siteSpaceCustomization(fresh, { customization });
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
      const { siteSpaceId } = request.params;
      const { site } = await authorizeSiteOf(app.db, request, 'write', 'change it');
      const siteSpace = await siteSpaceOf(site.id, siteSpaceId);
      await app.db
        .updateTable('site_spaces')
        .set({ customization: null, updated_at: nowIso() })
        .where('id', '=', siteSpace.id)
        .execute();
      return reply.code(204).send(null);
    },
  );
}
