/** Table types of the full-text search index over live content. Storage conventions: `../schema.ts`. */
import type { Generated } from 'kysely';

/**
 * One section of one page of a space's live revision, for full-text search (see src/search/ and
 * migration 0007). PostgreSQL adds a generated `tsv` column; SQLite mirrors the text columns into
 * the FTS5 table `search_fts` (rowid = id).
 */
export interface SearchPassagesTable {
  id: Generated<number>;
  space_id: string;
  /** The revision the passage was read from (the space's live one when indexed). */
  revision_id: string;
  page_id: string;
  page_title: string;
  /** The page's path in the space (slugs joined by `/`). */
  page_path: string;
  /** 0 for the text before the first heading, then 1, 2, … per heading. */
  section: number;
  /** The heading's anchor; null for section 0. */
  anchor: string | null;
  heading: string | null;
  /** Plain text of the section (and, for section 0, the page description). */
  body: string;
  /**
   * The words of the title, heading and body, normalized, in order, joined by spaces; and their
   * distinct stems (src/search/terms.ts `textForms`, migration 0034): what re-ranking matches terms
   * in, computed once here rather than on every search. Null in rows written before 0034.
   */
  words: string | null;
  stems: string | null;
}

/** Which revision of each space `search_passages` was built from. */
export interface SearchIndexStateTable {
  space_id: string;
  revision_id: string;
  indexed_at: string;
}

/**
 * The pairs of letters of the CJK words a passage holds (migration 0032): what a CJK search looks
 * up instead of scanning passages (src/search/terms.ts `cjkPairsOf`).
 */
export interface SearchCjkPairsTable {
  pair: string;
  passage_id: number;
}
