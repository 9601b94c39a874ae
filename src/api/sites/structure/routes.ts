/**
 * A site's external links (add, change, delete: the official `site-external-links` operations) and
 * the generic sort of its structure (`sortSiteStructure`). The two that may answer without the
 * representation do so for `Prefer: return=minimal` (204 with `Preference-Applied`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SiteRow } from '../../../db/schema.js';
import type { App } from '../../../http/app.js';
import { caller } from '../../../http/auth.js';
import { serviceContext } from '../../../http/service-context.js';
import { NoContent, type Role } from '../../../lib/schemas.js';
import { linkIn } from '../../../sites/external-links.js';
import { groupIn, sectionIn } from '../../../sites/sections.js';
import { siteSpaceIn } from '../../../sites/site-spaces.js';
import type { StructurePointer } from '../../../sites/sort.js';
import { loadStructure } from '../../../sites/structure.js';
import { loadSiteView } from '../shared/context.js';
import { presentExternalLink, presentGroup, presentSection, presentSiteSpace } from '../shared/present.js';
import { SiteExternalLink, SiteParams } from '../shared/schemas.js';
import {
  AddExternalLinkBody,
  ExternalLinkParams,
  PreferHeaders,
  SiteStructureItem,
  SortStructureBody,
  UpdateExternalLinkBody,
} from './schemas.js';
import { addExternalLinkToSite, deleteSiteExternalLink, sortSiteStructure, updateSiteExternalLink } from './service.js';

const tags = ['site-external-links'];

/** True (and the reply set up as a 204) when the caller asked for no representation. */
function minimal(request: FastifyRequest, reply: FastifyReply): boolean {
  if ((request.headers as { prefer?: string }).prefer !== 'return=minimal') return false;
  reply.code(204).header('preference-applied', 'return=minimal');
  return true;
}

export default async function siteStructureRoutes(app: App) {
  async function presentItem(site: SiteRow, userId: string, role: Role, item: StructurePointer) {
    const view = await loadSiteView(app, site, { userId, role });
    const { structure } = view;
    switch (item.type) {
      case 'site-space':
        return presentSiteSpace(siteSpaceIn(structure, item.id), view);
      case 'site-section':
        return presentSection(sectionIn(structure, item.id), view);
      case 'site-section-group':
        return presentGroup(groupIn(structure, item.id), view);
      case 'site-external-link':
        return presentExternalLink(linkIn(structure, item.id));
    }
  }

  async function presentLink(site: SiteRow, linkId: string) {
    return presentExternalLink(linkIn(await loadStructure(app.db, site.id), linkId));
  }

  app.post(
    '/orgs/:organizationId/sites/:siteId/external-links',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'addExternalLinkToSite',
        tags,
        params: SiteParams,
        body: AddExternalLinkBody,
        response: { 201: SiteExternalLink },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const { site, linkId } = await addExternalLinkToSite(
        serviceContext(app, request),
        organizationId,
        siteId,
        request.body,
      );
      reply
        .code(201)
        .header('location', app.urls.api(`/orgs/${organizationId}/sites/${site.id}/external-links/${linkId}`));
      return presentLink(site, linkId);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/external-links/:siteExternalLinkId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteExternalLinkById',
        tags,
        params: ExternalLinkParams,
        headers: PreferHeaders,
        body: UpdateExternalLinkBody,
        response: { 200: SiteExternalLink, 204: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteExternalLinkId } = request.params;
      const ctx = serviceContext(app, request);
      const { site } = await updateSiteExternalLink(ctx, organizationId, siteId, siteExternalLinkId, request.body);
      if (minimal(request, reply)) return reply.send(null);
      return presentLink(site, siteExternalLinkId);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/external-links/:siteExternalLinkId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'deleteSiteExternalLinkById',
        tags,
        params: ExternalLinkParams,
        response: { 204: NoContent, 205: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteExternalLinkId } = request.params;
      const deleted = await deleteSiteExternalLink(
        serviceContext(app, request),
        organizationId,
        siteId,
        siteExternalLinkId,
      );
      return reply.code(deleted ? 205 : 204).send(null);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/structure/sort',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'sortSiteStructure',
        tags: ['sites'],
        params: SiteParams,
        headers: PreferHeaders,
        body: SortStructureBody,
        response: { 200: SiteStructureItem, 204: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(app, request);
      const { site, role } = await sortSiteStructure(ctx, organizationId, siteId, request.body);
      if (minimal(request, reply)) return reply.send(null);
      const { user } = caller(request);
      return presentItem(site, user.id, role, request.body.item);
    },
  );
}
