/**
 * A space and one of its change requests in one query, for {@link authorizeChangeRequest}: every
 * request on a change request first authorizes its space, then finds the change request in it, and
 * as two queries that was two round trips (and two query runs) on every such request.
 *
 * The space is the query's row; the change request is left-joined to it (matched by id, or by number
 * when the key is all digits, as {@link findChangeRequest} does), its columns prefixed `cr_` so none
 * collides with the space's. No space: no row; a space without that change request: its `cr_` columns
 * are null. The queries are precompiled (db/prepared.ts), one per kind of key.
 */
import type { DbOrTrx } from '../../core/service.js';
import { prepare } from '../../db/prepared.js';
import type { ChangeRequestRow, SpaceRow } from '../../db/schema.js';
import { type ChangeRequestExtras, extrasOfJoined, joinedUserColumns, openCommentsOf } from './repo.js';

/** What a {@link ChangeRequestLoader} found: the space (if any) and its change request (if any). */
export interface SpaceAndChangeRequest<T extends ChangeRequestRow> {
  space: SpaceRow | undefined;
  changeRequest: T | undefined;
}

/** Loads a space and its change request `key` (an id, or a number when all digits) together. */
export type ChangeRequestLoader<T extends ChangeRequestRow> = (
  db: DbOrTrx,
  spaceId: string,
  key: string,
) => Promise<SpaceAndChangeRequest<T>>;

/** A change request with what presenting it needs (creator, merger, open comments). */
export type ChangeRequestForRead = ChangeRequestRow & { extras: ChangeRequestExtras };

function selectSpaceWithChangeRequest(db: DbOrTrx, spaceId: string, key: string | number, byNumber: boolean) {
  return db
    .selectFrom('spaces')
    .leftJoin('change_requests as cr', (join) =>
      join.onRef('cr.space_id', '=', 'spaces.id').on(byNumber ? 'cr.number' : 'cr.id', '=', key as never),
    )
    .selectAll('spaces')
    .select([
      'cr.id as cr_id',
      'cr.space_id as cr_space_id',
      'cr.number as cr_number',
      'cr.status as cr_status',
      'cr.subject as cr_subject',
      'cr.created_by as cr_created_by',
      'cr.revision_id as cr_revision_id',
      'cr.revision_initial as cr_revision_initial',
      'cr.revision_merged_ancestor as cr_revision_merged_ancestor',
      'cr.revision_merged as cr_revision_merged',
      'cr.merged_by as cr_merged_by',
      'cr.merged_at as cr_merged_at',
      'cr.created_at as cr_created_at',
      'cr.updated_at as cr_updated_at',
    ])
    .where('spaces.id', '=', spaceId);
}

/** The same with the creator, the merger and the count of open top-level comments. */
function selectSpaceWithChangeRequestForRead(db: DbOrTrx, spaceId: string, key: string | number, byNumber: boolean) {
  return selectSpaceWithChangeRequest(db, spaceId, key, byNumber)
    .leftJoin('users as creator', 'creator.id', 'cr.created_by')
    .leftJoin('users as merger', 'merger.id', 'cr.merged_by')
    .select(joinedUserColumns)
    .select((eb) => openCommentsOf(eb.ref('cr.id')).as('open_comments'));
}

type Key = { spaceId: string; key: string | number };
const rowById = prepare((db, p: Key) => selectSpaceWithChangeRequest(db, p.spaceId, p.key, false));
const rowByNumber = prepare((db, p: Key) => selectSpaceWithChangeRequest(db, p.spaceId, p.key, true));
const readById = prepare((db, p: Key) => selectSpaceWithChangeRequestForRead(db, p.spaceId, p.key, false));
const readByNumber = prepare((db, p: Key) => selectSpaceWithChangeRequestForRead(db, p.spaceId, p.key, true));

type Selected = NonNullable<Awaited<ReturnType<typeof rowById.first>>>;

/** The space's own columns of a selected row (built field by field: a new column fails to compile here). */
function spaceOf(r: Selected): SpaceRow {
  return {
    id: r.id,
    organization_id: r.organization_id,
    parent_id: r.parent_id,
    title: r.title,
    emoji: r.emoji,
    visibility: r.visibility,
    edit_mode: r.edit_mode,
    language: r.language,
    icon_url: r.icon_url,
    merge_rules: r.merge_rules,
    default_level: r.default_level,
    position: r.position,
    revision_id: r.revision_id,
    created_at: r.created_at,
    updated_at: r.updated_at,
    deleted_at: r.deleted_at,
  };
}

/** The change request's columns of a selected row, or undefined when the space has none with that key. */
function changeRequestOf(r: Selected): ChangeRequestRow | undefined {
  if (r.cr_id === null) return undefined;
  // Not null when cr_id is not: the columns of a change request that is there.
  return {
    id: r.cr_id,
    space_id: r.cr_space_id as string,
    number: r.cr_number as number,
    status: r.cr_status as string,
    subject: r.cr_subject as string,
    created_by: r.cr_created_by as string,
    revision_id: r.cr_revision_id as string,
    revision_initial: r.cr_revision_initial as string,
    revision_merged_ancestor: r.cr_revision_merged_ancestor,
    revision_merged: r.cr_revision_merged,
    merged_by: r.cr_merged_by,
    merged_at: r.cr_merged_at,
    created_at: r.cr_created_at as string,
    updated_at: r.cr_updated_at as string,
  };
}

function byNumber(key: string): boolean {
  return /^\d+$/.test(key);
}

/**
 * The number a key of digits stands for. Past PostgreSQL's integer column no change request has it:
 * 0 (numbers start at 1) matches none, where the number itself failed the query (a 500 where
 * SQLite answers 404, and before the space was authorized).
 */
function numberOf(key: string): number {
  const n = Number(key);
  return n <= 2_147_483_647 ? n : 0;
}

/** The space and its change request `key` (the row alone). */
export const loadChangeRequest: ChangeRequestLoader<ChangeRequestRow> = async (db, spaceId, key) => {
  const r = byNumber(key)
    ? await rowByNumber.first(db, { spaceId, key: numberOf(key) })
    : await rowById.first(db, { spaceId, key });
  if (!r) return { space: undefined, changeRequest: undefined };
  return { space: spaceOf(r), changeRequest: changeRequestOf(r) };
};

/** The space and its change request `key` with what presenting it needs, for single reads. */
export const loadChangeRequestForRead: ChangeRequestLoader<ChangeRequestForRead> = async (db, spaceId, key) => {
  const r = byNumber(key)
    ? await readByNumber.first(db, { spaceId, key: numberOf(key) })
    : await readById.first(db, { spaceId, key });
  if (!r) return { space: undefined, changeRequest: undefined };
  const row = changeRequestOf(r);
  if (!row) return { space: spaceOf(r), changeRequest: undefined };
  const changeRequest = row as ChangeRequestForRead;
  changeRequest.extras = extrasOfJoined([{ ...r, id: row.id }]);
  return { space: spaceOf(r), changeRequest };
};
