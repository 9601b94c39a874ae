/**
 * Full-text search over the live content of spaces: the one module that writes and reads the search
 * index (table `search_passages`, migration 0007). The SQL that differs between PostgreSQL
 * (`tsvector`, `ts_rank`) and SQLite (FTS5, `bm25`) is here and nowhere else.
 *
 * - {@link indexSpace} rebuilds a space's passages from its live revision (a reindex replaces them
 *   all). The merge of a change request calls it in the transaction that moves the live revision, so
 *   the index never lags a merge; {@link ensureIndexed} catches up any space whose index is missing
 *   or older (a database that predates the index, a failed reindex) before a search reads it.
 * - {@link search} ranks passages of the given spaces by words; {@link searchInside} finds those
 *   holding a term inside a word or in text without spaces (the trigram index of migration 0025:
 *   `pg_trgm`, FTS5 `trigram`; CJK pairs of letters through `search_cjk_pairs`, 0032). Both read passages of the given spaces only, and only those of each
 *   space's current live revision of a space that is not deleted. Which spaces a caller may read is decided
 *   by the caller (the permission resolver), never here.
 */
import { type RawBuilder, type Selectable, sql } from 'kysely';
import type { JsonDocument } from '../content/document.js';
import { expandIncludes } from '../content/includes.js';
import { flattenPages, getDocuments, loadRevision } from '../content/store.js';
import type { Db } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import type { SearchPassagesTable, SpaceRow } from '../db/schema.js';
import { nowIso } from '../lib/time.js';
import { splitSections } from './passages.js';
import { cjkPairsOf, isCjk, isCjkPair, MIN_SUBSTRING, queryTerms, type TextForms, textForms } from './terms.js';

const INSERT_CHUNK = 200;
/** Pair rows per insert: two parameters each, well under both databases' parameter limits. */
const PAIR_CHUNK = 2000;
const ID_CHUNK = 500;

/** One ranked passage. */
export interface Passage {
  id: number;
  spaceId: string;
  revisionId: string;
  pageId: string;
  pageTitle: string;
  pagePath: string;
  section: number;
  anchor: string | null;
  heading: string | null;
  body: string;
  /** The words and stems of {@link passageText} (null in a row indexed before they were stored). */
  forms: TextForms | null;
  /** The database's relevance, higher is better (bm25 negated on SQLite, ts_rank on PostgreSQL). */
  rank: number;
}

/** The text of a passage that search matches terms in: the page title, the heading and the body. */
export const passageText = (passage: Pick<Passage, 'pageTitle' | 'heading' | 'body'>): string =>
  `${passage.pageTitle}\n${passage.heading ?? ''}\n${passage.body}`;

/** Runs `work` in a transaction, or in the caller's one. */
async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/**
 * Rebuilds the passages of `spaceId` from its live revision (every page with a body, one passage
 * per section) and records the revision indexed. A missing space loses its passages.
 */
export async function indexSpace(db: Db, spaceId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const space = await trx.selectFrom('spaces').selectAll().where('id', '=', spaceId).executeTakeFirst();
    if (!space) {
      await trx.deleteFrom('search_passages').where('space_id', '=', spaceId).execute();
      return;
    }
    // Taking the state row first serializes concurrent reindexes of one space (PostgreSQL row lock).
    await trx
      .insertInto('search_index_state')
      .values({ space_id: space.id, revision_id: space.revision_id, indexed_at: nowIso() })
      .onConflict((oc) => oc.column('space_id').doUpdateSet({ revision_id: space.revision_id, indexed_at: nowIso() }))
      .execute();
    const rows = await passageRows(trx, space);
    await trx.deleteFrom('search_passages').where('space_id', '=', space.id).execute();
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK);
      const inserted = await trx
        .insertInto('search_passages')
        .values(chunk)
        .returning(['id', 'page_id', 'section'])
        .execute();
      await insertPairs(trx, chunk, inserted);
    }
  });
}

/** Records the CJK letter pairs of passages just inserted (matched to their ids by page and section). */
async function insertPairs(
  db: Db,
  passages: Array<{ page_id: string; section: number; page_title: string; heading: string | null; body: string }>,
  inserted: Array<{ id: number | string; page_id: string; section: number | string }>,
): Promise<void> {
  const ids = new Map(inserted.map((row) => [`${row.section} ${row.page_id}`, Number(row.id)]));
  const pairs = passages.flatMap((passage) => {
    const id = ids.get(`${passage.section} ${passage.page_id}`);
    if (id === undefined) throw new Error(`passage ${passage.page_id}#${passage.section} was not inserted`);
    return cjkPairsOf(passage.page_title, passage.heading ?? '', passage.body).map((pair) => ({
      pair,
      passage_id: id,
    }));
  });
  for (let i = 0; i < pairs.length; i += PAIR_CHUNK) {
    await db
      .insertInto('search_cjk_pairs')
      .values(pairs.slice(i, i + PAIR_CHUNK))
      .execute();
  }
}

async function passageRows(db: Db, space: SpaceRow) {
  const snapshot = await loadRevision(db, space, space.revision_id);
  if (!snapshot) return [];
  const pages = flattenPages(snapshot.pages).filter((p) => p.page.type === 'document');
  const documents = await getDocuments(
    db,
    pages.flatMap((p) => (p.page.document ? [p.page.document] : [])),
  );
  // Reusable contents are indexed where they are included, as readers see them.
  const expanded = new Map<string, JsonDocument>();
  for (const [hash, document] of documents) {
    expanded.set(hash, { ...document, nodes: await expandIncludes(db, snapshot, document.nodes) });
  }
  return pages.flatMap(({ page, path }) =>
    splitSections(page.document ? expanded.get(page.document) : undefined, page.description).map((section) => {
      const forms = textForms(passageText({ pageTitle: page.title, heading: section.heading, body: section.text }));
      return {
        space_id: space.id,
        revision_id: snapshot.id,
        page_id: page.id,
        page_title: page.title,
        page_path: path,
        section: section.index,
        anchor: section.anchor,
        heading: section.heading,
        body: section.text,
        words: forms.words,
        stems: forms.stems,
      };
    }),
  );
}

/**
 * Records the index of a new space, whose first revision is empty: it has no passages. Called in
 * the transaction that creates the space, so that searching it never has an index to catch up.
 */
export async function recordEmptyIndex(db: Db, space: SpaceRow): Promise<void> {
  await db
    .insertInto('search_index_state')
    .values({ space_id: space.id, revision_id: space.revision_id, indexed_at: space.created_at })
    .execute();
}

/** Reindexes every space of `spaces` whose index is missing or not of its live revision. */
export async function ensureIndexed(db: Db, spaces: SpaceRow[]): Promise<number> {
  const indexed = new Map<string, string>();
  for (let i = 0; i < spaces.length; i += ID_CHUNK) {
    const ids = spaces.slice(i, i + ID_CHUNK).map((s) => s.id);
    const rows = await db
      .selectFrom('search_index_state')
      .select(['space_id', 'revision_id'])
      .where('space_id', 'in', ids)
      .execute();
    for (const row of rows) indexed.set(row.space_id, row.revision_id);
  }
  const stale = spaces.filter((s) => indexed.get(s.id) !== s.revision_id);
  for (const space of stale) await indexSpace(db, space.id);
  return stale.length;
}

export interface SearchOptions {
  /** The spaces to search: those the caller may read. */
  spaceIds: string[];
  /** Search terms (see `queryTerms`); a passage matching any of them is a candidate. */
  terms: string[];
  limit: number;
}

/** Passages of the live revisions of `spaceIds` matching any term, best first. */
export async function search(db: Db, options: SearchOptions): Promise<Passage[]> {
  const terms = options.terms.flatMap((t) => queryTerms(t));
  if (terms.length === 0 || options.spaceIds.length === 0) return [];
  const found: Passage[] = [];
  // Spaces in chunks keep the parameter count bounded; each chunk is ranked by the database.
  for (let i = 0; i < options.spaceIds.length; i += ID_CHUNK) {
    const ids = options.spaceIds.slice(i, i + ID_CHUNK);
    found.push(...(await searchChunk(db, ids, terms, options.limit)));
  }
  found.sort((a, b) => b.rank - a.rank || a.id - b.id);
  return found.slice(0, options.limit);
}

const COLUMNS = sql.raw(
  'p.id, p.space_id, p.revision_id, p.page_id, p.page_title, p.page_path, p.section, p.anchor, p.heading, p.body, p.words, p.stems',
);

/**
 * The passages ranked by `ranked` (a query of their ids and ranks, best first, limited), with their
 * columns. The ranking sorts every match, and sorting whole rows copied each one's text (body and
 * words) into the sort; only the ids and ranks are sorted, and the text read for the rows kept.
 */
const withColumns = (ranked: RawBuilder<unknown>) => sql<PassageRow>`
  select ${COLUMNS}, r.rank from (${ranked}) r join search_passages p on p.id = r.id
  order by r.rank desc, p.id`;

/** A passage as the search query returns it (ids and ranks come back as numbers or strings by dialect). */
type PassageRow = Omit<Selectable<SearchPassagesTable>, 'id'> & { id: number | string; rank: number | string };

async function searchChunk(db: Db, spaceIds: string[], terms: string[], limit: number): Promise<Passage[]> {
  const ids = sql.join(spaceIds.map((id) => sql`${id}`));
  const live = sql`join spaces s on s.id = p.space_id and s.revision_id = p.revision_id and s.deleted_at is null`;
  let rows: PassageRow[];
  if (dialectOf(db) === 'postgres') {
    // Terms are letters and digits only (queryTerms), so they are safe tsquery lexemes.
    const query = terms.join(' | ');
    const result = await withColumns(sql`
      select p.id, ts_rank(p.tsv, q.query) as rank
      from search_passages p ${live}, to_tsquery('english', ${query}) as q(query)
      where p.tsv @@ q.query and p.space_id in (${ids})
      order by rank desc, p.id
      limit ${limit}`).execute(db);
    rows = result.rows;
  } else {
    // Each term quoted: FTS5 query syntax cannot leak in. Weights: title 8, heading 4, body 1.
    const match = terms.map((t) => `"${t}"`).join(' OR ');
    const result = await withColumns(sql`
      select p.id, -bm25(search_fts, 8.0, 4.0, 1.0) as rank
      from search_fts join search_passages p on p.id = search_fts.rowid ${live}
      where search_fts match ${match} and p.space_id in (${ids})
      order by rank desc, p.id
      limit ${limit}`).execute(db);
    rows = result.rows;
  }
  return rows.map(toPassage);
}

/** The text a passage is searched in for substrings (the expression the PostgreSQL trigram index is built on). */
const PASSAGE_TEXT = sql.raw(`(p.page_title || ' ' || coalesce(p.heading, '') || ' ' || p.body)`);

/**
 * Passages of the live revisions of `spaceIds` holding any of `terms` as a substring (case and, on
 * SQLite, diacritics folded): terms of {@link MIN_SUBSTRING}+ letters through the trigram index,
 * CJK pairs of letters through the pairs index, one-letter CJK terms by a scan of the spaces'
 * passages. Best first by how many terms they hold
 * (bm25 on SQLite's trigram index); `rank` is that count or that bm25. Terms must be letters and digits (searchTerms).
 */
export async function searchInside(db: Db, options: SearchOptions): Promise<Passage[]> {
  const terms = options.terms.filter((t) => t.length >= MIN_SUBSTRING || isCjk(t));
  if (terms.length === 0 || options.spaceIds.length === 0) return [];
  const found: Passage[] = [];
  for (let i = 0; i < options.spaceIds.length; i += ID_CHUNK) {
    const ids = options.spaceIds.slice(i, i + ID_CHUNK);
    found.push(...(await insideChunk(db, ids, terms, options.limit)));
  }
  found.sort((a, b) => b.rank - a.rank || a.id - b.id);
  return found.slice(0, options.limit);
}

async function insideChunk(db: Db, spaceIds: string[], terms: string[], limit: number): Promise<Passage[]> {
  const ids = sql.join(spaceIds.map((id) => sql`${id}`));
  const live = sql`join spaces s on s.id = p.space_id and s.revision_id = p.revision_id and s.deleted_at is null`;
  const postgres = dialectOf(db) === 'postgres';
  const like = postgres ? sql`ilike` : sql`like`;
  // CJK pairs through their own index; other terms as substrings of the passage's text.
  const pairs = terms.filter(isCjkPair);
  const others = terms.filter((t) => !isCjkPair(t));
  const long = others.filter((t) => t.length >= MIN_SUBSTRING);
  const holdsText = (t: string) => sql`${PASSAGE_TEXT} ${like} ${`%${t}%`}`;
  const holdsPair = (t: string) =>
    sql`exists (select 1 from search_cjk_pairs c where c.pair = ${t} and c.passage_id = p.id)`;
  const holds = (t: string) => (isCjkPair(t) ? holdsPair(t) : holdsText(t));
  const count = sql.join(
    terms.map((t) => sql`(case when ${holds(t)} then 1 else 0 end)`),
    sql` + `,
  );
  let rows: PassageRow[];
  if (postgres || long.length < terms.length) {
    // Which passages: those holding a pair (its index), or a term as a substring (PostgreSQL's
    // trigram index serves the ilike; SQLite's trigram table; a one-letter CJK term is scanned for).
    const found = [
      ...(pairs.length > 0
        ? [sql`p.id in (select c.passage_id from search_cjk_pairs c where c.pair in (${sql.join(pairs)}))`]
        : []),
      ...(postgres
        ? others.map(holdsText)
        : [
            ...(long.length > 0
              ? [sql`p.id in (select rowid from search_trigram where search_trigram match ${trigramMatch(long)})`]
              : []),
            ...others.filter((t) => t.length < MIN_SUBSTRING).map(holdsText),
          ]),
    ];
    const result = await withColumns(sql`
      select p.id, ${count} as rank
      from search_passages p ${live}
      where p.space_id in (${ids}) and (${sql.join(found, sql` or `)})
      order by rank desc, p.id
      limit ${limit}`).execute(db);
    rows = result.rows;
  } else {
    // FTS5 trigram alone: ranked by bm25, as counting each term's LIKE on every match would cost
    // more than it sorts.
    const result = await withColumns(sql`
      select p.id, -bm25(search_trigram, 8.0, 4.0, 1.0) as rank
      from search_trigram join search_passages p on p.id = search_trigram.rowid ${live}
      where search_trigram match ${trigramMatch(long)} and p.space_id in (${ids})
      order by rank desc, p.id
      limit ${limit}`).execute(db);
    rows = result.rows;
  }
  return rows.map(toPassage);
}

/** An FTS5 trigram query for any of `terms`: a quoted term matches as a substring; quoting keeps query syntax out. */
const trigramMatch = (terms: string[]) => terms.map((t) => `"${t}"`).join(' OR ');

function toPassage(r: PassageRow): Passage {
  return {
    id: Number(r.id),
    spaceId: r.space_id,
    revisionId: r.revision_id,
    pageId: r.page_id,
    pageTitle: r.page_title,
    pagePath: r.page_path,
    section: Number(r.section),
    anchor: r.anchor,
    heading: r.heading,
    body: r.body,
    forms: r.words === null || r.stems === null ? null : { words: r.words, stems: r.stems },
    rank: Number(r.rank),
  };
}

/** Headings (and page titles) of the live content of `spaceIds`, in reading order: material for suggested questions. */
export async function outline(
  db: Db,
  spaceIds: string[],
  limit: number,
): Promise<Array<{ spaceId: string; pageId: string; pageTitle: string; heading: string | null }>> {
  const out: Array<{ spaceId: string; pageId: string; pageTitle: string; heading: string | null }> = [];
  for (let i = 0; i < spaceIds.length && out.length < limit; i += ID_CHUNK) {
    const ids = spaceIds.slice(i, i + ID_CHUNK);
    const rows = await db
      .selectFrom('search_passages as p')
      .innerJoin('spaces as s', (join) =>
        join.onRef('s.id', '=', 'p.space_id').onRef('s.revision_id', '=', 'p.revision_id'),
      )
      .select(['p.space_id', 'p.page_id', 'p.page_title', 'p.heading'])
      .where('s.deleted_at', 'is', null)
      .where('p.space_id', 'in', ids)
      .orderBy('s.position')
      .orderBy('p.space_id')
      .orderBy('p.id')
      .limit(limit - out.length)
      .execute();
    out.push(
      ...rows.map((r) => ({ spaceId: r.space_id, pageId: r.page_id, pageTitle: r.page_title, heading: r.heading })),
    );
  }
  return out;
}
