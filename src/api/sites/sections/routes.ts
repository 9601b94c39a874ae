/** Site sections: list, add, change, delete and move the sections of a site. Groups: `groups.ts`. */
import type { App } from '../../../core/app.js';
import { caller } from '../../../core/auth.js';
import { badRequest } from '../../../core/errors.js';
import { PagedList, paginateArray } from '../../../core/paging.js';
import { NoContent, type Role } from '../../../core/schemas.js';
import type { SiteRow } from '../../../db/schema.js';
import { authorizeSite, requireSpaceForSite } from '../../../permissions/sites.js';
import { assertExpression } from '../../../sites/condition.js';
import { addSection, deleteSection, moveSection, sectionIn, updateSection } from '../../../sites/sections.js';
import { loadStructure } from '../../../sites/structure.js';
import { createSpace } from '../../spaces/repo.js';
import { loadSiteView, resolveShareKey } from '../shared/context.js';
import { presentSection } from '../shared/present.js';
import { SiteParams, SiteSection } from '../shared/schemas.js';
import groupRoutes from './groups-routes.js';
import { AddSectionBody, ListSectionsQuery, MoveSectionBody, SectionParams, UpdateSectionBody } from './schemas.js';

const tags = ['site-sections'];

export default async function siteSectionRoutes(app: App) {
  async function presentOne(site: SiteRow, userId: string, role: Role, id: string) {
    const view = await loadSiteView(app, site, { userId, role });
    return presentSection(sectionIn(view.structure, id), view);
  }

  app.get(
    '/orgs/:organizationId/sites/:siteId/sections',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'listSiteSections',
        tags,
        params: SiteParams,
        querystring: ListSectionsQuery,
        response: { 200: PagedList(SiteSection) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { organizationId, siteId } = request.params;
      const { site, role } = await authorizeSite(app.db, user.id, organizationId, siteId, 'read', 'read it');
      const shareKey = await resolveShareKey(app.db, site.id, request.query.shareKey);
      const view = await loadSiteView(app, site, { userId: user.id, role }, shareKey);
      const page = paginateArray(view.structure.sections, (s) => s.id, request.query);
      return { ...page, items: page.items.map((s) => presentSection(s, view)) };
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/sections',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'addSectionToSite',
        tags,
        params: SiteParams,
        body: AddSectionBody,
        response: { 201: SiteSection },
      },
    },
    async (request, reply) => {
      const { user } = caller(request);
      const { organizationId, siteId } = request.params;
      const { site, role } = await authorizeSite(
        app.db,
        user.id,
        organizationId,
        siteId,
        'write',
        'add sections to it',
      );
      const { spaceId, title, icon, siteSectionGroupId } = request.body;
      const existing = spaceId === null ? null : await requireSpaceForSite(app.db, user.id, organizationId, spaceId);
      // Checked before a space is created for `spaceId: null` (addSection checks again in its transaction).
      if (
        siteSectionGroupId !== undefined &&
        !(await loadStructure(app.db, site.id)).groupById.has(siteSectionGroupId)
      ) {
        throw badRequest(`body/siteSectionGroupId: ${siteSectionGroupId} is not a section group of this site`);
      }
      // `spaceId: null` asks for a new, empty space, titled after the section.
      const space =
        existing ?? (await createSpace(app.db, organizationId, { title: (title ?? 'Untitled').slice(0, 50) }));
      const section = await app.db
        .transaction()
        .execute(async (trx) =>
          addSection(trx, await loadStructure(trx, site.id), site, space, { title, icon, groupId: siteSectionGroupId }),
        );
      reply
        .code(201)
        .header('location', app.urls.api(`/orgs/${organizationId}/sites/${site.id}/sections/${section.id}`));
      return presentOne(site, user.id, role, section.id);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteSectionById',
        tags,
        params: SectionParams,
        body: UpdateSectionBody,
        response: { 200: SiteSection },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { organizationId, siteId, siteSectionId } = request.params;
      const { site, role } = await authorizeSite(app.db, user.id, organizationId, siteId, 'write', 'change it');
      if (typeof request.body.condition === 'string') assertExpression(request.body.condition, 'body/condition');
      await app.db.transaction().execute(async (trx) => {
        const structure = await loadStructure(trx, site.id);
        await updateSection(trx, structure, sectionIn(structure, siteSectionId), request.body);
      });
      return presentOne(site, user.id, role, siteSectionId);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId',
    {
      config: { scope: 'site:write' },
      schema: { operationId: 'deleteSiteSectionById', tags, params: SectionParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { user } = caller(request);
      const { organizationId, siteId, siteSectionId } = request.params;
      const { site } = await authorizeSite(app.db, user.id, organizationId, siteId, 'write', 'change it');
      await app.db.transaction().execute(async (trx) => {
        const structure = await loadStructure(trx, site.id);
        await deleteSection(trx, structure, sectionIn(structure, siteSectionId));
      });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId/move',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'moveSiteSection',
        tags,
        params: SectionParams,
        body: MoveSectionBody,
        response: { 200: SiteSection },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { organizationId, siteId, siteSectionId } = request.params;
      const { site, role } = await authorizeSite(app.db, user.id, organizationId, siteId, 'write', 'change it');
      await app.db.transaction().execute(async (trx) => {
        const structure = await loadStructure(trx, site.id);
        await moveSection(trx, structure, sectionIn(structure, siteSectionId), request.body.position);
      });
      return presentOne(site, user.id, role, siteSectionId);
    },
  );

  await app.register(groupRoutes);
}
