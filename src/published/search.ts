/**
 * Search over a published site's live content, shared by the site's search box and the official
 * `searchSiteContent` operation. Passages come from the full-text index (src/search) of the given
 * spaces only — the site's own, never more — and are re-ranked by how many of the query's words they
 * hold (a passage with fewer than half is dropped), then grouped by page, best first.
 */
import type { Db } from '../db/database.js';
import type { SpaceRow } from '../db/schema.js';
import { ensureIndexed, type Passage, search } from '../search/index.js';
import { queryTerms, termMatcher } from '../search/terms.js';

const CANDIDATES = 200;

export interface SectionHit {
  passage: Passage;
  score: number;
}

export interface PageHit {
  spaceId: string;
  pageId: string;
  title: string;
  /** Path of the page in its space. */
  path: string;
  score: number;
  /** The page matched on its title, or on the content of its sections. */
  resultType: 'page' | 'section';
  sections: SectionHit[];
}

/** Pages of `spaces` matching `query`, best first. */
export async function searchSpaces(db: Db, spaces: SpaceRow[], query: string): Promise<PageHit[]> {
  const terms = queryTerms(query);
  if (terms.length === 0 || spaces.length === 0) return [];
  await ensureIndexed(db, spaces);
  const candidates = await search(db, { spaceIds: spaces.map((s) => s.id), terms, limit: CANDIDATES });
  const needed = Math.max(1, Math.ceil(terms.length / 2));
  const best = Math.max(...candidates.map((c) => c.rank), Number.MIN_VALUE);
  const pages = new Map<string, PageHit>();
  for (const passage of candidates) {
    const has = termMatcher(`${passage.pageTitle}\n${passage.heading ?? ''}\n${passage.body}`);
    const matched = terms.filter(has).length;
    if (matched < needed) continue;
    const inTitle = termMatcher(passage.pageTitle);
    const titleMatches = terms.filter(inTitle).length;
    const score =
      Math.round(
        ((2 * matched) / terms.length + titleMatches / terms.length + Math.max(passage.rank, 0) / best) * 1000,
      ) / 1000;
    const key = `${passage.spaceId}/${passage.pageId}`;
    let page = pages.get(key);
    if (!page) {
      page = {
        spaceId: passage.spaceId,
        pageId: passage.pageId,
        title: passage.pageTitle,
        path: passage.pagePath,
        score,
        resultType: titleMatches === terms.length ? 'page' : 'section',
        sections: [],
      };
      pages.set(key, page);
    }
    page.score = Math.max(page.score, score);
    page.sections.push({ passage, score });
  }
  const out = [...pages.values()];
  for (const page of out) page.sections.sort((a, b) => b.score - a.score || a.passage.section - b.passage.section);
  return out.sort((a, b) => b.score - a.score || a.title.localeCompare(b.title));
}

/** About `length` characters of `text` around the first word of `query` it holds. */
export function snippet(text: string, query: string, length = 180): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const lower = flat.toLowerCase();
  const at = queryTerms(query)
    .map((t) => lower.indexOf(t.slice(0, Math.max(3, t.length - 2))))
    .filter((i) => i >= 0)
    .sort((a, b) => a - b)[0];
  const start = at === undefined ? 0 : Math.max(0, at - Math.floor(length / 3));
  const cut = flat.slice(start, start + length);
  return `${start > 0 ? '…' : ''}${cut.trim()}${start + length < flat.length ? '…' : ''}`;
}
