/**
 * `searchSiteContent`: full-text search over the live content of a site's site spaces (the same
 * search as the site's own search box), in the scope the caller names: the default content of each
 * section (optionally around a current site space), specific site spaces, or all of them. Results are
 * pages grouped by space, each with its global rank and its best sections. And `prewarmSiteSearch`,
 * which readies what that search reads before the queries come.
 */
import type { Static } from 'typebox';
import type { SiteSpaceRow } from '../../db/schema.js';
import type { App } from '../../http/app.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { PagedList, paginateArray } from '../../lib/paging.js';
import { NoContent } from '../../lib/schemas.js';
import { authorizeSiteOf } from '../../permissions/sites.js';
import { SiteReader, type SpaceContent } from '../../published/reader.js';
import { ensureIndexed } from '../../search/index.js';
import { type PageHit, searchSpaces } from '../../search/pages.js';
import { PublishedUrls } from '../../sites/urls.js';
import { SearchBody, SearchQuery, SearchSpaceResult } from './publishing-schemas.js';
import { SiteParams } from './shared/schemas.js';

type Body = Static<typeof SearchBody>;

/** The site spaces `body` asks to search (400 for site spaces that are not the site's). */
function scopeOf(reader: SiteReader, body: Body): SiteSpaceRow[] {
  const all =
    reader.sections().length > 0 ? reader.sections().flatMap((s) => reader.siteSpacesOf(s)) : reader.siteSpacesOf(null);
  const named = (ids: string[], field: string) =>
    ids.map((id) => {
      const found = all.find((s) => s.id === id);
      if (!found) throw badRequest(`body/${field}: ${id} is not a site space of this site`);
      return found;
    });
  const defaults = () => {
    const sections = reader.model.structure.hasSections ? reader.sections() : [null];
    return sections.flatMap((section) => reader.defaultSiteSpace(section) ?? []);
  };
  const scope = body.scope;
  if (scope?.mode === 'all' || (!scope && body.mode === 'all')) return all;
  if (scope?.mode === 'specific') return named(scope.siteSpaceIds, 'scope/siteSpaceIds');
  if (!scope && body.siteSpaceIds) return named(body.siteSpaceIds, 'siteSpaceIds');
  if (!scope && body.mode === 'current') {
    if (!body.siteSpaceId) throw badRequest('body/siteSpaceId is required with mode "current"');
    const [current] = named([body.siteSpaceId], 'siteSpaceId');
    return [...new Set([current as SiteSpaceRow, ...defaults()])];
  }
  const current = scope?.currentSiteSpace ? named([scope.currentSiteSpace], 'scope/currentSiteSpace')[0] : undefined;
  if (scope?.restrictTo && !current) throw badRequest('body/scope/restrictTo needs scope/currentSiteSpace');
  if (scope?.restrictTo === 'currentSiteSpace') return [current as SiteSpaceRow];
  if (scope?.restrictTo === 'otherSiteSpaces') return defaults().filter((s) => s !== current);
  return [...new Set([...(current ? [current] : []), ...defaults()])];
}

export default async function siteSearchRoutes(app: App) {
  /**
   * The search of a site reads the index of each of its readable spaces at its live revision, and
   * their page trees: this brings every stale or missing index up to date (the catch-up a first
   * query would otherwise pay for) and loads the page trees into the reader's cache. It changes no
   * resource (the index follows the content), so it records no event.
   */
  app.post(
    '/orgs/:organizationId/sites/:siteId/search/prewarm',
    {
      config: { scope: 'site:search' },
      schema: { operationId: 'prewarmSiteSearch', tags: ['sites'], params: SiteParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { site } = await authorizeSiteOf(app.db, request, 'read', 'search it');
      const model = await app.published.model(site.id);
      if (!model) throw notFound(`site ${site.id} not found`);
      const contents = await new SiteReader(app.db, model, '').allContents();
      const spaces = new Map(contents.map((c) => [c.space.id, c.space]));
      await ensureIndexed(app.db, [...spaces.values()]);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/search',
    {
      config: { scope: 'site:search' },
      schema: {
        operationId: 'searchSiteContent',
        tags: ['sites'],
        params: SiteParams,
        querystring: SearchQuery,
        body: SearchBody,
        response: { 200: PagedList(SearchSpaceResult) },
      },
    },
    async (request) => {
      const { site } = await authorizeSiteOf(app.db, request, 'read', 'search it');
      const model = await app.published.model(site.id);
      if (!model) throw notFound(`site ${site.id} not found`);
      const reader = new SiteReader(app.db, model, '');
      const contents = new Map<string, SpaceContent>();
      for (const siteSpace of scopeOf(reader, request.body)) {
        if (contents.has(siteSpace.space_id)) continue;
        const content = await reader.content(siteSpace);
        if (content) contents.set(siteSpace.space_id, content);
      }
      const hits = await searchSpaces(
        app.db,
        [...contents.values()].map((c) => c.space),
        request.body.query,
      );
      const ranked = hits.map((hit, i) => ({ hit, rank: i + 1 }));
      const page = paginateArray(ranked, (r) => `${r.hit.spaceId}/${r.hit.pageId}`, request.query);
      const base = new PublishedUrls(model.site, model.org, app.urls).base;
      const presentPage = ({ hit, rank }: { hit: PageHit; rank: number }) => {
        const content = contents.get(hit.spaceId) as SpaceContent;
        const entry = content.byId.get(hit.pageId);
        const url = entry ? `${base}${reader.pagePath(content, entry)}` : base;
        const ancestors: Array<{ title: string }> = [];
        for (let at = entry?.parent ? content.byId.get(entry.parent.id) : undefined; at; ) {
          ancestors.unshift({ title: at.page.title });
          at = at.parent ? content.byId.get(at.parent.id) : undefined;
        }
        return {
          id: hit.pageId,
          title: entry?.page.title ?? hit.title,
          description: entry?.page.description ?? '',
          path: hit.path,
          score: hit.score,
          rank,
          resultType: hit.resultType,
          sections: hit.sections.map(({ passage, score }) => {
            const anchor = passage.anchor ? `#${passage.anchor}` : '';
            return {
              id: passage.anchor ?? `${hit.pageId}-${passage.section}`,
              title: passage.heading ?? hit.title,
              path: `${hit.path}${anchor}`,
              score,
              resultType: 'section' as const,
              body: passage.body,
              urls: { app: `${url}${anchor ? `#${encodeURIComponent(passage.anchor as string)}` : ''}` },
            };
          }),
          ancestors,
          urls: { app: url },
        };
      };
      // Grouped by space in order of each space's best page on this page of results.
      const groups = new Map<string, Array<{ hit: PageHit; rank: number }>>();
      for (const item of page.items) groups.set(item.hit.spaceId, [...(groups.get(item.hit.spaceId) ?? []), item]);
      const items = [...groups.entries()].map(([spaceId, pages]) => ({
        type: 'space' as const,
        id: spaceId,
        title: contents.get(spaceId)?.space.title ?? '',
        score: Math.max(...pages.map((p) => p.hit.score)),
        pages: pages.map(presentPage),
      }));
      return { ...page, items };
    },
  );
}
