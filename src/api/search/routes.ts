/**
 * Content search (`searchOrganizationContent`, `searchSpaceContent`): the live content of the spaces
 * the caller may read, through the one search index the published sites search too (src/search).
 *
 * Who: an organization's members (not guests: 404, as for the organization itself) search every
 * space of it they can read, as the permission resolver decides; the spaces they cannot read are
 * left out before the index is queried, so they never show, not even in `count`. A space search
 * needs the read role on the space (404 otherwise).
 *
 * Paging: `limit` counts pages (results), ranked over the whole result; an organization's results
 * come grouped by space, each page keeping its global `rank`. `count` is the number of pages found.
 */

import { readsParts } from '../../core/answer-scope.js';
import type { SpaceRow } from '../../db/schema.js';
import { spacePart, spaceSetPart } from '../../db/scope-parts.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { paginateArray } from '../../lib/paging.js';
import { authorizeSpace } from '../../permissions/content.js';
import { requireOrgMember } from '../../permissions/organization.js';
import { loadViewer } from '../../permissions/resolver.js';
import { atLeast } from '../../permissions/roles.js';
import { searchSpaces } from '../../search/pages.js';
import { presentPage, presentSpaces, type RankedHit } from './present.js';
import { listLiveSpaces, livePages } from './repo.js';
import {
  OrganizationSearchParams,
  OrganizationSearchResults,
  SearchQuery,
  SpaceSearchParams,
  SpaceSearchResults,
} from './schemas.js';

/** The hits of `query` in `spaces`, ranked, one page of them, with what their presentation needs. */
async function searchPage(app: App, spaces: SpaceRow[], query: { query: string; page?: string; limit?: number }) {
  const hits = await searchSpaces(app.db, spaces, query.query);
  const ranked: RankedHit[] = hits.map((hit, i) => ({ hit, rank: i + 1 }));
  const page = paginateArray(ranked, (r) => `${r.hit.spaceId}/${r.hit.pageId}`, query);
  const shown = new Set(page.items.map((r) => r.hit.spaceId));
  const pages = await livePages(
    app.db,
    spaces.filter((s) => shown.has(s.id)),
  );
  const present = (r: RankedHit) => presentPage(r, pages.get(r.hit.spaceId)?.get(r.hit.pageId), query.query, app.urls);
  return { page, present };
}

export default async function searchRoutes(app: App) {
  app.get(
    '/orgs/:organizationId/search',
    {
      config: { scope: 'organization:search', cacheable: true },
      schema: {
        operationId: 'searchOrganizationContent',
        summary: 'Search the live content of the spaces the caller can read in an organization',
        tags: ['organizations'],
        params: OrganizationSearchParams,
        querystring: SearchQuery,
        response: { 200: OrganizationSearchResults },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const { user } = caller(request);
      await requireOrgMember(app.db, organizationId, user.id);
      // What the answer shows of its organization (db/scope-parts.ts): which spaces exist, and the
      // title and live pages of the spaces it lists. The rest of the spaces' rows it reads decides who
      // may read them (the base), and their index and live revisions move only with a reindex (the
      // base too): a rename of a space it does not list leaves it in memory.
      readsParts(spaceSetPart(organizationId));
      const [viewer, all] = await Promise.all([
        loadViewer(app.db, organizationId, user.id),
        listLiveSpaces(app.db, organizationId),
      ]);
      const readable = all.filter((space) => atLeast(viewer.roleOnSpace(space), 'read'));
      const { page, present } = await searchPage(app, readable, request.query);
      readsParts(...new Set(page.items.map((r) => spacePart(r.hit.spaceId))));
      const titles = new Map(readable.map((s) => [s.id, s.title]));
      return { ...page, items: presentSpaces(page.items, titles, present) };
    },
  );

  app.get(
    '/spaces/:spaceId/search',
    {
      config: { scope: 'space:read', cacheable: true },
      schema: {
        operationId: 'searchSpaceContent',
        summary: 'Search the live content of a space',
        tags: ['space-content'],
        params: SpaceSearchParams,
        querystring: SearchQuery,
        response: { 200: SpaceSearchResults },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { row: space } = await authorizeSpace(app.db, user.id, request.params.spaceId, 'read', 'search it');
      readsParts(spacePart(space.id));
      const { page, present } = await searchPage(app, [space], request.query);
      return { ...page, items: page.items.map(present) };
    },
  );
}
