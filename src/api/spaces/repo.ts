import { sql } from 'kysely';
import type { Static } from 'typebox';
import { storeFirstRevision } from '../../content/store.js';
import { positionAtEnd } from '../../content-tree/order.js';
import type { DbOrTrx } from '../../core/service.js';
import { inJsonArray, toCount } from '../../db/dialect.js';
import { prepare } from '../../db/prepared.js';
import type { GitSyncRow, SpaceRow } from '../../db/schema.js';
import { gitSyncOf } from '../../git/state.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { storeDefaultLevel } from '../../permissions/resolver.js';
import { recordEmptyIndex } from '../../search/index.js';
import { changeRequestCount, changeRequestCounts } from '../change-requests/repo.js';
import { openCommentCount, openCommentCounts } from '../comments/repo.js';
import type { CreateSpaceBody, UpdateSpaceBody } from './schemas.js';

export async function findSpace(db: DbOrTrx, id: string): Promise<SpaceRow | undefined> {
  return db.selectFrom('spaces').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function createSpace(
  db: DbOrTrx,
  organizationId: string,
  input: Static<typeof CreateSpaceBody>,
): Promise<SpaceRow> {
  const now = nowIso();
  const parentId = input.parent ?? null;
  const row: SpaceRow = {
    id: newId(),
    organization_id: organizationId,
    parent_id: parentId,
    title: input.title ?? 'Untitled',
    emoji: input.emoji ?? null,
    visibility: input.visibility ?? (parentId ? 'in-collection' : 'private'),
    edit_mode: input.editMode ?? 'live',
    language: input.language ?? null,
    icon_url: null,
    merge_rules: null,
    default_level: 'inherit',
    position: await positionAtEnd(db, organizationId, parentId),
    revision_id: newId(),
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  await db.insertInto('spaces').values(row).execute();
  await storeFirstRevision(db, row);
  await recordEmptyIndex(db, row);
  return row;
}

export async function updateSpace(db: DbOrTrx, id: string, body: Static<typeof UpdateSpaceBody>): Promise<void> {
  const patch: Partial<SpaceRow> = { updated_at: nowIso() };
  if (body.title !== undefined) patch.title = body.title;
  if (body.emoji !== undefined) patch.emoji = body.emoji;
  if (body.icon !== undefined) patch.icon_url = body.icon;
  if (body.mergeRules !== undefined) patch.merge_rules = JSON.stringify(body.mergeRules);
  if (body.visibility !== undefined) patch.visibility = body.visibility;
  if (body.editMode !== undefined) patch.edit_mode = body.editMode;
  if (body.defaultLevel !== undefined) patch.default_level = storeDefaultLevel(body.defaultLevel);
  if (body.language !== undefined) patch.language = body.language;
  await db.updateTable('spaces').set(patch).where('id', '=', id).execute();
}

export async function setSpaceDeleted(db: DbOrTrx, id: string, deleted: boolean): Promise<void> {
  await db
    .updateTable('spaces')
    .set({ deleted_at: deleted ? nowIso() : null, updated_at: nowIso() })
    .where('id', '=', id)
    .execute();
}

/** The light rows the resolver needs, for every live space of an organization (or of one collection). */
export async function listSpaceNodes(db: DbOrTrx, organizationId: string, parentId?: string) {
  if (parentId === undefined) return spaceNodesOfOrganization.all(db, { organizationId });
  return selectSpaceNodes(db, organizationId).where('parent_id', '=', parentId).execute();
}

function selectSpaceNodes(db: DbOrTrx, organizationId: string) {
  return db
    .selectFrom('spaces')
    .select(['id', 'parent_id', 'default_level', 'position', 'created_at'])
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null);
}

/** Every space list of an organization starts with this one: precompiled. */
const spaceNodesOfOrganization = prepare((db, p: { organizationId: string }) => selectSpaceNodes(db, p.organizationId));

/** Full rows of `ids`, in the order of `ids`. */
export async function findSpacesByIds(db: DbOrTrx, ids: string[]): Promise<SpaceRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('spaces').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export interface SpaceCounts {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

/**
 * Counters shown on Space objects, for a whole list in two queries: `comments` counts the open
 * comments of the space itself; `changeRequests` every change request (draft, open, merged, archived).
 */
export async function spaceCounts(db: DbOrTrx, ids: string[]): Promise<Map<string, SpaceCounts>> {
  const [changeRequests, comments] = await Promise.all([changeRequestCounts(db, ids), openCommentCounts(db, ids)]);
  return new Map(
    ids.map((id) => {
      const { total, open, draft } = changeRequests.get(id) ?? { total: 0, open: 0, draft: 0 };
      const counts = { changeRequests: total, changeRequestsOpen: open, changeRequestsDraft: draft };
      return [id, { comments: comments.get(id) ?? 0, ...counts }];
    }),
  );
}

/** A space with its counters and whether it has a Git Sync connection (see {@link findSpaceForRead}). */
export interface SpaceForRead {
  row: SpaceRow;
  counts: SpaceCounts;
  hasGitSync: boolean;
}

/** Spaces with the counters they show (each a subquery on its index) and whether Git Sync is set up. */
function selectSpacesWithCounters(db: DbOrTrx) {
  return db
    .selectFrom('spaces')
    .selectAll('spaces')
    .select((eb) => [
      changeRequestCount(eb.ref('spaces.id')).as('cr_total'),
      changeRequestCount(eb.ref('spaces.id'), 'open').as('cr_open'),
      changeRequestCount(eb.ref('spaces.id'), 'draft').as('cr_draft'),
      openCommentCount(eb.ref('spaces.id')).as('comments_open'),
      eb
        .exists(eb.selectFrom('git_sync').select(sql.lit(1).as('one')).whereRef('git_sync.space_id', '=', 'spaces.id'))
        .as('git_synced'),
    ]);
}

/**
 * One space with the counters it shows, in one query (each counter a subquery on its index), for
 * single reads; lists use {@link spaceExtras}.
 */
const spaceForRead = prepare((db, p: { id: string }) => selectSpacesWithCounters(db).where('spaces.id', '=', p.id));

export async function findSpaceForRead(db: DbOrTrx, id: string): Promise<SpaceForRead | undefined> {
  const found = await spaceForRead.first(db, { id });
  if (!found) return undefined;
  return { row: found, counts: countsOf(found), hasGitSync: Boolean(Number(found.git_synced)) };
}

export interface SpaceToPresent {
  row: SpaceRow;
  counts: SpaceCounts;
  gitSync: GitSyncRow | undefined;
}

/** A space with all that presenting it needs: one query, two when it has a Git Sync connection. */
export async function findSpaceToPresent(db: DbOrTrx, id: string): Promise<SpaceToPresent | undefined> {
  const found = await findSpaceForRead(db, id);
  if (!found) return undefined;
  const gitSync = found.hasGitSync ? (await gitSyncOf(db, [id])).get(id) : undefined;
  return { row: found.row, counts: found.counts, gitSync };
}

/** The counters selected by {@link selectSpacesWithCounters}, as a Space shows them. */
function countsOf(found: {
  cr_total: number | string | null;
  cr_open: number | string | null;
  cr_draft: number | string | null;
  comments_open: number | string | null;
}): SpaceCounts {
  return {
    comments: toCount(found.comments_open),
    changeRequests: toCount(found.cr_total),
    changeRequestsOpen: toCount(found.cr_open),
    changeRequestsDraft: toCount(found.cr_draft),
  };
}

/** {@link selectSpacesWithCounters} for a page of ids (a JSON array), precompiled: building it cost ~150 µs. */
const spacesWithCounters = prepare((db, p: { ids: string }) =>
  selectSpacesWithCounters(db).where((eb) => inJsonArray(db, eb.ref('spaces.id'), p.ids)),
);

/** What presenting a list of spaces needs besides their rows: counters and Git Sync state, one query each. */
export interface SpaceExtras {
  counts: Map<string, SpaceCounts>;
  gitSync: Map<string, GitSyncRow>;
}

export async function spaceExtras(db: DbOrTrx, spaces: Array<{ id: string }>): Promise<SpaceExtras> {
  const ids = spaces.map((s) => s.id);
  const [counts, gitSync] = await Promise.all([spaceCounts(db, ids), gitSyncOf(db, ids)]);
  return { counts, gitSync };
}

/**
 * Full rows of `ids` (in that order) with what presenting them needs, for a page of a list: the
 * counters are correlated subqueries of the same query, and the Git Sync state is read only for
 * the spaces that have one (usually none, so one query in all).
 */
export async function findSpacesWithExtras(
  db: DbOrTrx,
  ids: string[],
): Promise<{ rows: SpaceRow[]; extras: SpaceExtras }> {
  const extras: SpaceExtras = { counts: new Map(), gitSync: new Map() };
  if (ids.length === 0) return { rows: [], extras };
  const selected = await spacesWithCounters.all(db, { ids: JSON.stringify(ids) });
  const byId = new Map(selected.map((r) => [r.id, r]));
  const rows: SpaceRow[] = [];
  const synced: string[] = [];
  for (const id of ids) {
    const found = byId.get(id);
    if (!found) continue;
    // The selected row is a SpaceRow with the counters as extra columns, passed on as it is:
    // copying it without them (`const { cr_total, …, ...row } = found`) cost ~4 µs a row.
    rows.push(found);
    extras.counts.set(id, countsOf(found));
    if (Number(found.git_synced)) synced.push(id);
  }
  if (synced.length > 0) extras.gitSync = await gitSyncOf(db, synced);
  return { rows, extras };
}

/** The id of the collection `parentId` if it still exists. */
export async function findLiveParent(db: DbOrTrx, parentId: string): Promise<string | null> {
  const parent = await db.selectFrom('collections').select('id').where('id', '=', parentId).executeTakeFirst();
  return parent ? parent.id : null;
}

/** Brings a deleted space back under `parentId` at `position`. */
export async function restoreSpace(db: DbOrTrx, id: string, parentId: string | null, position: number): Promise<void> {
  await db
    .updateTable('spaces')
    .set({ deleted_at: null, parent_id: parentId, position, updated_at: nowIso() })
    .where('id', '=', id)
    .execute();
}

/** Moves a space under `parentId` (ordering is `placeItem`'s), with the visibility it keeps there. */
export async function moveSpace(db: DbOrTrx, id: string, parentId: string | null, visibility: string): Promise<void> {
  await db
    .updateTable('spaces')
    .set({ parent_id: parentId, visibility, updated_at: nowIso() })
    .where('id', '=', id)
    .execute();
}
