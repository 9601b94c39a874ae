/**
 * Who can access a site's content: every user with a role on one of the spaces it publishes, with
 * the highest such role and the space it comes from (`origin`). Roles are resolved per space with the
 * one permission resolver, as the space aggregates are.
 */
import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import { PagedList, PageQuery, paginateArray } from '../../lib/paging.js';
import { ROLES, type Role, StringEnum } from '../../lib/schemas.js';
import { aggregateRoles } from '../../permissions/resolver.js';
import { rank } from '../../permissions/roles.js';
import { authorizeSiteOf } from '../../permissions/sites.js';
import { loadStructure } from '../../sites/structure.js';
import { presentUser } from '../users/present.js';
import { findUsersByIds } from '../users/repo.js';
import { liveSpaceNodes } from './repo.js';
import { SitePermissionEntry } from './schemas.js';
import { SiteParams } from './shared/schemas.js';

const AggregateQuery = Type.Object({ ...PageQuery, role: Type.Optional(StringEnum(ROLES)) });

export default async function aggregateRoutes(app: App) {
  app.get(
    '/orgs/:organizationId/sites/:siteId/permissions/aggregate',
    {
      config: { scope: 'site:permissions:read' },
      schema: {
        operationId: 'listPermissionsAggregateInSite',
        tags: ['permissions'],
        params: SiteParams,
        querystring: AggregateQuery,
        response: { 200: PagedList(SitePermissionEntry) },
      },
    },
    async (request) => {
      const { site } = await authorizeSiteOf(app.db, request, 'read', 'read it');
      const structure = await loadStructure(app.db, site.id);
      const spaceIds = [...new Set(structure.siteSpaces.map((s) => s.space_id))];
      const spaces = await liveSpaceNodes(app.db, spaceIds);
      // Per user: the highest role over the site's spaces, and the first space (in site order) giving it.
      const order = new Map(spaceIds.map((id, i) => [id, i]));
      spaces.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
      const best = new Map<string, { role: Role; space: string }>();
      for (const space of spaces) {
        for (const { userId, role } of await aggregateRoles(app.db, site.organization_id, {
          type: 'space',
          ...space,
        })) {
          const current = best.get(userId);
          if (!current || rank(role) > rank(current.role)) best.set(userId, { role, space: space.id });
        }
      }
      const all = [...best.entries()]
        .filter(([, e]) => !request.query.role || e.role === request.query.role)
        .sort(([a], [b]) => a.localeCompare(b));
      const page = paginateArray(all, ([userId]) => userId, request.query);
      const users = await findUsersByIds(
        app.db,
        page.items.map(([userId]) => userId),
      );
      return {
        ...page,
        items: page.items.flatMap(([userId, e]) => {
          const user = users.get(userId);
          return user
            ? [
                {
                  permission: e.role,
                  user: presentUser(user, app.urls),
                  origin: { type: 'space' as const, space: e.space },
                  disabled: false,
                },
              ]
            : [];
        }),
      };
    },
  );
}
