/**
 * Search over live content, shared by a published site's search box, the official
 * `searchSiteContent` operation and the API's `searchOrganizationContent` / `searchSpaceContent`.
 * Passages come from the one search index (src/search) of the given spaces only — those the caller
 * may read, never more — found by word and by substring (inside words, and text without spaces),
 * re-ranked by how many of the query's terms they hold (a passage with fewer than half is dropped),
 * then grouped by page, best first.
 *
 * Ranking: terms in the page title weigh more than terms in the text, and the whole query as a
 * phrase more than its words apart: a page whose title holds every term ranks above one whose text
 * alone does, and a passage holding the phrase above one holding the same words apart.
 */
import type { Db } from '../db/database.js';
import type { SpaceRow } from '../db/schema.js';
import { ensureIndexed, type Passage, passageText, search, searchInside } from './index.js';
import {
  formsMatcher,
  isCjk,
  normalize,
  queryPhrase,
  searchTerms,
  type TextMatch,
  textForms,
  textMatcher,
} from './terms.js';

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
  const terms = searchTerms(query);
  if (terms.length === 0 || spaces.length === 0) return [];
  await ensureIndexed(db, spaces);
  const spaceIds = spaces.map((s) => s.id);
  const wordTerms = terms.filter((t) => !isCjk(t));
  const byWord = await search(db, { spaceIds, terms: wordTerms, limit: CANDIDATES });
  // When whole words already fill the candidates, matches inside words would rank below them:
  // the substring search runs only when they do not (and always for CJK, which has no words).
  const inside =
    byWord.length < CANDIDATES || wordTerms.length < terms.length
      ? await searchInside(db, { spaceIds, terms, limit: CANDIDATES })
      : [];
  // Word ranks (bm25, ts_rank) weigh in; a passage found only inside words has none.
  const candidates = new Map<number, Passage>(inside.map((p) => [p.id, { ...p, rank: 0 }]));
  for (const passage of byWord) candidates.set(passage.id, passage);
  const needed = Math.max(1, Math.ceil(terms.length / 2));
  const best = Math.max(...byWord.map((c) => c.rank), Number.MIN_VALUE);
  const phrase = queryPhrase(query);
  const pages = new Map<string, PageHit>();
  // A page's passages share its title: each title is read once.
  const titles = new Map<string, TextMatch>();
  for (const passage of candidates.values()) {
    // The forms stored at index time; computed here only for a row indexed before they were.
    const inText = formsMatcher(passage.forms ?? textForms(passageText(passage)));
    const matched = terms.filter((t) => inText.has(t)).length;
    if (matched < needed) continue;
    let inTitle = titles.get(passage.pageTitle);
    if (!inTitle) {
      inTitle = textMatcher(passage.pageTitle);
      titles.set(passage.pageTitle, inTitle);
    }
    const titleMatches = terms.filter((t) => inTitle.has(t)).length;
    const phraseBonus = !phrase ? 0 : inTitle.holds(phrase) ? 3 : inText.holds(phrase) ? 1.5 : 0;
    const score =
      Math.round(
        ((2 * matched) / terms.length +
          (3 * titleMatches) / terms.length +
          phraseBonus +
          Math.max(passage.rank, 0) / best) *
          1000,
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

/** The strings marked for `query`: its terms, and the query itself when it is a phrase. */
function needlesOf(query: string): string[] {
  // Every section shown asks for the same query's needles (twice each): the last query's are kept.
  if (lastNeedles?.query !== query) {
    const needles = [...new Set([...searchTerms(query), ...(queryPhrase(query) ? [normalize(query.trim())] : [])])];
    lastNeedles = { query, needles };
  }
  return lastNeedles.needles;
}
let lastNeedles: { query: string; needles: string[] } | undefined;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Each place `needle` occurs in `folded`, as a whole word when it is short and not CJK. */
function* occurrences(folded: string, needle: string): Generator<number> {
  const wholeWord = !isCjk(needle) && needle.length < 3;
  for (let at = folded.indexOf(needle); at >= 0; at = folded.indexOf(needle, at + 1)) {
    if (
      wholeWord &&
      (LETTER_OR_DIGIT.test(folded[at - 1] ?? '') || LETTER_OR_DIGIT.test(folded[at + needle.length] ?? ''))
    )
      continue;
    yield at;
  }
}

/** `text` folded as terms are, or null when folding does not keep one character per character. */
function foldedOf(text: string): string | null {
  // Folding keeps one character per character for almost every text (one pass over the whole text,
  // not one per character: this runs for every section shown); when it does not, nothing is marked.
  const folded = normalize(text);
  return folded.length === text.length ? folded : null;
}

/** Where the terms (and phrase) of `query` occur in `text`: [start, end) ranges, sorted, merged where they touch. */
export function matchRanges(text: string, query: string): Array<[number, number]> {
  const folded = foldedOf(text);
  if (folded === null) return [];
  const ranges: Array<[number, number]> = [];
  for (const needle of needlesOf(query)) {
    for (const at of occurrences(folded, needle)) ranges.push([at, at + needle.length]);
  }
  // Overlapping matches (CJK pairs "安装" "装服"; a word inside the phrase) become one mark.
  const sorted = ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/** Where the first match of `query` in `text` starts ({@link matchRanges}' first range), without finding the others. */
function firstMatch(text: string, query: string): number | undefined {
  const folded = foldedOf(text);
  if (folded === null) return undefined;
  let first: number | undefined;
  for (const needle of needlesOf(query)) {
    for (const at of occurrences(folded, needle)) {
      if (first === undefined || at < first) first = at;
      break;
    }
  }
  return first;
}

/**
 * `text` with every run of white space as one space, trimmed (`text.replace(/\s+/g, ' ').trim()`).
 * Only the runs that are not one space already are replaced: in prose nearly every run is one space,
 * and replacing each of them cost a search ~30 µs a result shown, most of its snippet's CPU.
 */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s{2,}|[^\S ]/g, ' ').trim();
}

/** About `length` characters of `text` around the first word of `query` it holds. */
export function snippet(text: string, query: string, length = 180): string {
  const flat = collapseWhitespace(text);
  if (flat.length <= length) return flat;
  const at = firstMatch(flat, query);
  const start = at === undefined ? 0 : Math.max(0, at - Math.floor(length / 3));
  const cut = flat.slice(start, start + length);
  return `${start > 0 ? '…' : ''}${cut.trim()}${start + length < flat.length ? '…' : ''}`;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * {@link snippet} as HTML text: escaped, with each match of the query in `<mark>…</mark>` (the
 * `body` of the API's search results).
 */
export function markedSnippet(text: string, query: string, length = 240): string {
  const cut = snippet(text, query, length);
  let out = '';
  let from = 0;
  // The excerpt's "…" folds to three characters, which would leave the folded text longer than the
  // excerpt and nothing marked: matched with one character in its place, the ranges stay the cut's.
  for (const [start, end] of matchRanges(cut.replace(/…/g, ' '), query)) {
    out += `${escapeHtml(cut.slice(from, start))}<mark>${escapeHtml(cut.slice(start, end))}</mark>`;
    from = end;
  }
  return out + escapeHtml(cut.slice(from));
}
