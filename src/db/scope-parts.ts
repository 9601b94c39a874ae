/**
 * Parts of an organization's data finer than the organization (src/db/write-scope.ts), so that the
 * editors' frequent writes (an autosave, a comment, a rename) leave the answers of the rest of
 * their organization in memory: an autosave of one change request drops that change request's
 * answers and its space's list of change requests, not the organization, its members, its other
 * spaces or the live pages.
 *
 * The parts: a space (`space:<id>`: its row, its live comments), the organization's list of spaces
 * (`org-spaces:<org>`), which spaces exist (`org-space-set:<org>`, which a write leaves alone only
 * when it says so), a change request (`cr:<id>`: its row, content, comments, reviews), the
 * list of a space's change requests (`space-crs:<space>`) and their counts by status
 * (`cr-counts:<space>`, which a write leaves alone only when it says the status did not change). Everything else of the organization (the
 * organization's row, members, teams, collections, permissions, sites…) is its *base*
 * (`orgbase:<org>`).
 *
 * A write says which parts it changes ({@link declareSpaceWrite}, {@link declareChangeRequestWrite},
 * called where its event is recorded); it moves `org:<org>` as before (every answer that did not
 * name parts depends on it), the parts it named, and `orgbase:<org>` unless every row it wrote is
 * covered by them. An answer that names the parts it shows ({@link AnswerScope.readsParts} in
 * src/core/answer-scope.ts) depends on `orgbase:<org>` and those parts instead of `org:<org>`.
 *
 * Both sides are checked against the statements that actually ran, by table, so a forgotten
 * declaration costs cached answers, never a stale one:
 * - a write of a part table ({@link WRITE_COVER}) with no declared part of a covering kind, or more
 *   rows than declared parts of those kinds, moves the base; any other organization table but the
 *   {@link NEUTRAL} ones moves the base too;
 * - an answer that read a part table with no named part of a covering kind ({@link READ_COVER}), or
 *   a neutral table, falls back to depending on the whole organization.
 * What the table check cannot see is which rows: a declaration must name the space or change
 * request whose rows it writes, and an answer must name the parts of every row it shows. The
 * short-lived caches of src/core/cache.ts hold no row of a part table (they are read without SQL).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export type PartKind = 'space' | 'org-spaces' | 'org-space-set' | 'cr' | 'space-crs' | 'cr-counts';

/** The scope of the organization's data outside its parts. */
export const organizationBaseScope = (organizationId: string) => `orgbase:${organizationId}`;
export const spacePart = (spaceId: string) => `space:${spaceId}`;
export const spaceListPart = (organizationId: string) => `org-spaces:${organizationId}`;
/** Which spaces of the organization exist (not deleted): members show how many they are granted. */
export const spaceSetPart = (organizationId: string) => `org-space-set:${organizationId}`;
export const changeRequestPart = (changeRequestId: string) => `cr:${changeRequestId}`;
export const changeRequestListPart = (spaceId: string) => `space-crs:${spaceId}`;
/** The counts of a space's change requests by status (a Space shows them). */
export const changeRequestCountsPart = (spaceId: string) => `cr-counts:${spaceId}`;

/**
 * The part an answer names for a space whose row it reads but none of whose own fields (title,
 * emoji, comments…) it shows: its content, its change requests. Of the row it depends on the
 * space's existence (`org-space-set`), who may read it (visibility, default level, parent: their
 * writes declare the base) and its live revision, which moves only with a reindex in the same
 * transaction (src/services/live.ts), a write of the search index: the base. So a rename leaves it.
 */
export const spaceUnshownPart = (organizationId: string) => spaceSetPart(organizationId);

/** The kind of a part scope. */
export function kindOf(part: string): PartKind {
  return part.slice(0, part.indexOf(':')) as PartKind;
}

/** Part tables: the kinds of declared part a write of the table needs (one per row written). */
const WRITE_COVER: ReadonlyMap<string, readonly PartKind[]> = new Map<string, PartKind[]>([
  ['spaces', ['space']],
  ['change_requests', ['cr']],
  ['change_request_reviewers', ['cr']],
  ['change_request_reviews', ['cr']],
  // A revision is inserted for the change request or the space it then becomes the content of.
  ['revisions', ['cr', 'space']],
  ['comments', ['cr', 'space']],
  ['comment_reactions', ['cr', 'space']],
  // The search index (search_passages, search_cjk_pairs, search_index_state) is the base: a
  // reindex writes many rows, and every move of a space's live revision reindexes it in the same
  // transaction (src/services/live.ts), so answers showing live content (the organization's search)
  // see a new live revision through the base, whichever space's part they name.
]);

/** Part tables: the kinds of named part that cover an answer reading the table. */
const READ_COVER: ReadonlyMap<string, readonly PartKind[]> = new Map<string, PartKind[]>([
  ['spaces', ['space', 'org-spaces', 'org-space-set']],
  ['change_requests', ['cr', 'space-crs', 'cr-counts']],
  ['change_request_reviewers', ['cr', 'space-crs']],
  ['change_request_reviews', ['cr', 'space-crs']],
  // A revision row is only ever inserted: an answer shows one through a pointer it also reads (a
  // change request's revision, or a space's live one, which moves with the base: see
  // spaceUnshownPart), so naming what covers the pointer covers it.
  ['revisions', ['cr', 'space', 'org-space-set']],
  ['comments', ['cr', 'space-crs', 'space', 'org-spaces']],
  ['comment_reactions', ['cr', 'space-crs', 'space', 'org-spaces']],
]);

/**
 * Organization tables that part writes also write and that no answer naming parts reads (the audit
 * log): writing them moves `org:<org>` only.
 */
const NEUTRAL = new Set(['events']);

/** Whether writing `table` needs a part of the organization declared (else it is base or not organization data). */
export function isPartTable(table: string): boolean {
  return WRITE_COVER.has(table);
}

export function isNeutralTable(table: string): boolean {
  return NEUTRAL.has(table);
}

/** Whether `rows` rows written to `table` are covered by declared parts of `kinds` (counted per kind). */
export function writeCovered(
  table: string,
  rows: number | undefined,
  declared: ReadonlyMap<PartKind, number>,
): boolean {
  if (rows === undefined) return false;
  let parts = 0;
  for (const kind of WRITE_COVER.get(table) ?? []) parts += declared.get(kind) ?? 0;
  return rows <= parts;
}

/** Whether an answer that read `tables` (part and neutral tables) is covered by its named parts. */
export function readCovered(tables: ReadonlySet<string>, named: ReadonlySet<PartKind>): boolean {
  for (const table of tables) {
    const kinds = READ_COVER.get(table);
    if (kinds === undefined || !kinds.some((kind) => named.has(kind))) return false;
  }
  return true;
}

const WATCHED = [...READ_COVER.keys(), ...NEUTRAL];
const WATCHED_PATTERN = new RegExp(`\\b(${WATCHED.join('|')})\\b`, 'g');
/** Per SQL text, the watched tables it names (a column of the same name counts too: safe side). */
const tablesBySql = new Map<string, readonly string[]>();

/** The part and neutral tables `sql` may read. */
export function watchedTablesIn(sql: string): readonly string[] {
  let tables = tablesBySql.get(sql);
  if (tables === undefined) {
    tables = [...new Set(sql.match(WATCHED_PATTERN) ?? [])];
    if (tablesBySql.size >= 5_000) tablesBySql.clear();
    tablesBySql.set(sql, tables);
  }
  return tables;
}

/** What the answer being computed has read (src/core/answer-scope.ts keeps it). */
export interface ReadTracker {
  readonly tablesRead: Set<string>;
}

/** The tracker of the answer the current code computes, if any (set by src/core/answer-scope.ts). */
export const readTracking = new AsyncLocalStorage<ReadTracker>();

/** Called by the drivers (src/db/writes.ts) for each read statement run that names watched tables. */
export function noteRead(tables: readonly string[]): void {
  if (tables.length === 0) return;
  const tracker = readTracking.getStore();
  if (tracker === undefined) return;
  for (const table of tables) tracker.tablesRead.add(table);
}
