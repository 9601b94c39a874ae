/** Search results in the official shapes: pages (with their best sections) and spaces grouping them. */
import type { Static } from 'typebox';
import type { SearchPageResult, SearchSpaceResult } from '../../lib/search-schemas.js';
import type { Urls } from '../../lib/urls.js';
import { markedSnippet, type PageHit } from '../../search/pages.js';
import type { PageInfo } from './repo.js';

/** Sections shown per page: the best ones. */
const SECTIONS_PER_PAGE = 5;

export interface RankedHit {
  hit: PageHit;
  /** One-based position in the whole ranked result. */
  rank: number;
}

/** A page of the results; `body` of each section is an HTML excerpt with the matches in `<mark>`. */
export function presentPage(
  { hit, rank }: RankedHit,
  info: PageInfo | undefined,
  query: string,
  urls: Urls,
): Static<typeof SearchPageResult> {
  const pageUrl = urls.app(`/s/${hit.spaceId}/${hit.path}`);
  return {
    id: hit.pageId,
    title: info?.title ?? hit.title,
    description: info?.description ?? '',
    path: hit.path,
    score: hit.score,
    rank,
    resultType: hit.resultType,
    sections: hit.sections.slice(0, SECTIONS_PER_PAGE).map(({ passage, score }) => ({
      id: passage.anchor ?? `${hit.pageId}-${passage.section}`,
      title: passage.heading ?? hit.title,
      path: passage.anchor ? `${hit.path}#${passage.anchor}` : hit.path,
      score,
      resultType: 'section' as const,
      body: markedSnippet(passage.body, query),
      urls: { app: passage.anchor ? `${pageUrl}#${encodeURIComponent(passage.anchor)}` : pageUrl },
    })),
    ancestors: (info?.ancestors ?? []).map((title) => ({ title })),
    urls: { app: pageUrl },
  };
}

/** Pages grouped by space, the spaces in order of their best page on this page of results. */
export function presentSpaces(
  ranked: RankedHit[],
  titles: ReadonlyMap<string, string>,
  present: (hit: RankedHit) => Static<typeof SearchPageResult>,
): Array<Static<typeof SearchSpaceResult>> {
  const groups = new Map<string, RankedHit[]>();
  for (const item of ranked) groups.set(item.hit.spaceId, [...(groups.get(item.hit.spaceId) ?? []), item]);
  return [...groups.entries()].map(([spaceId, pages]) => ({
    type: 'space' as const,
    id: spaceId,
    title: titles.get(spaceId) ?? '',
    score: Math.max(...pages.map((p) => p.hit.score)),
    pages: pages.map(present),
  }));
}
