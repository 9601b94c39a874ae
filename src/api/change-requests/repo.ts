import { type Expression, expressionBuilder } from 'kysely';
import type { Static } from 'typebox';
import type { DbOrTrx } from '../../core/service.js';
import { toCount } from '../../db/dialect.js';
import { prepare } from '../../db/prepared.js';
import type { ChangeRequestRow, Database, UserRow } from '../../db/schema.js';
import { conflict } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { type Page, paginate } from '../../lib/paging.js';
import { nowIso } from '../../lib/time.js';
import { findUsersByIds } from '../users/repo.js';
import type { ListChangeRequestsQuery } from './schemas.js';

/** A change request of `spaceId` by id, or by number when the key is all digits. */
export async function findChangeRequest(
  db: DbOrTrx,
  spaceId: string,
  key: string,
): Promise<ChangeRequestRow | undefined> {
  let q = db.selectFrom('change_requests').selectAll().where('space_id', '=', spaceId);
  q = /^\d+$/.test(key) ? q.where('number', '=', Number(key)) : q.where('id', '=', key);
  return q.executeTakeFirst();
}

/**
 * Inserts a change request on the space's live revision, numbered next in the space. Two concurrent
 * creations may pick the same number: the unique index refuses one (the service retries it).
 */
export async function insertChangeRequest(
  trx: DbOrTrx,
  spaceId: string,
  userId: string,
  subject: string,
): Promise<ChangeRequestRow> {
  const current = await trx
    .selectFrom('spaces')
    .select('revision_id')
    .where('id', '=', spaceId)
    .executeTakeFirstOrThrow();
  const max = await trx
    .selectFrom('change_requests')
    .select((eb) => eb.fn.max('number').as('max'))
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
  const now = nowIso();
  const row: ChangeRequestRow = {
    id: newId(),
    space_id: spaceId,
    number: toCount(max?.max) + 1,
    status: 'open',
    subject,
    created_by: userId,
    revision_id: current.revision_id,
    revision_initial: current.revision_id,
    revision_merged_ancestor: null,
    revision_merged: null,
    merged_by: null,
    merged_at: null,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('change_requests').values(row).execute();
  return row;
}

/** The change requests of `spaceId` the query asks for (status, creator, requested reviewer). */
function selectListed(db: DbOrTrx, spaceId: string, query: Static<typeof ListChangeRequestsQuery>) {
  let q = db
    .selectFrom('change_requests')
    .where('change_requests.space_id', '=', spaceId)
    .where('change_requests.status', '=', query.status ?? 'open');
  if (query.creator) q = q.where('change_requests.created_by', '=', query.creator);
  if (query.requestedReviewer) {
    const reviewer = query.requestedReviewer;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('change_request_reviewers')
          .select('change_request_reviewers.user_id')
          .whereRef('change_request_reviewers.change_request_id', '=', 'change_requests.id')
          .where('change_request_reviewers.user_id', '=', reviewer),
      ),
    );
  }
  return q;
}

/**
 * A page of the space's change requests with what presenting them needs, in one query beside the
 * count: the creator and merger are joined and the open top-level comments counted per row (a
 * subquery on the comments' index), where reading them after the page cost two more queries.
 */
export async function listChangeRequestsForRead(
  db: DbOrTrx,
  spaceId: string,
  query: Static<typeof ListChangeRequestsQuery>,
): Promise<{ page: Page<ChangeRequestRow>; extras: ChangeRequestExtras }> {
  const listed = selectListed(db, spaceId, query);
  const rows = listed
    .selectAll('change_requests')
    .leftJoin('users as creator', 'creator.id', 'change_requests.created_by')
    .leftJoin('users as merger', 'merger.id', 'change_requests.merged_by')
    .select(joinedUserColumns)
    .select((eb) => openCommentsOf(eb.ref('change_requests.id')).as('open_comments'));
  const column = query.orderBy === 'createdAt' ? 'created_at' : 'updated_at';
  const page = await paginate(
    rows,
    [
      { column: `change_requests.${column}`, direction: 'desc', value: (r) => r[column] },
      // Numbers are unique within the space: a total order, and creation order among equal timestamps.
      { column: 'change_requests.number', direction: 'desc', value: (r) => r.number, kind: 'number' },
    ],
    query,
    // The joins and the comment counts change no count: count the change requests alone.
    () =>
      listed
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirst()
        .then((row) => toCount(row?.count)),
  );
  return { page, extras: extrasOfJoined(page.items) };
}

/** The creator's and merger's columns a User object shows, for a query joining them as `creator` and `merger`. */
export const joinedUserColumns = [
  'creator.id as creator_id',
  'creator.email as creator_email',
  'creator.display_name as creator_name',
  'creator.photo_url as creator_photo',
  'merger.id as merger_id',
  'merger.email as merger_email',
  'merger.display_name as merger_name',
  'merger.photo_url as merger_photo',
] as const;

/** The open top-level comments of the change request `changeRequestId` (a column of the outer query). */
export function openCommentsOf(changeRequestId: Expression<string | null>) {
  return expressionBuilder<Database, never>()
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('comments.change_request_id', '=', changeRequestId)
    .where('comments.parent_id', 'is', null)
    .where('comments.resolved_at', 'is', null);
}

/** A change request's row as selected with {@link joinedUserColumns} and `open_comments`. */
export interface JoinedExtras {
  id: string;
  creator_id: string | null;
  creator_email: string | null;
  creator_name: string | null;
  creator_photo: string | null;
  merger_id: string | null;
  merger_email: string | null;
  merger_name: string | null;
  merger_photo: string | null;
  open_comments: number | string | null;
}

/** The {@link ChangeRequestExtras} of rows that selected them (as {@link changeRequestExtras} would read them). */
export function extrasOfJoined(rows: readonly JoinedExtras[]): ChangeRequestExtras {
  // Only the fields the User object shows (users/present.ts); absent users show as placeholders.
  const users = new Map<string, UserRow>();
  const addUser = (id: string | null, email: string | null, display_name: string | null, photo_url: string | null) => {
    if (id) users.set(id, { id, email, display_name, photo_url } as UserRow);
  };
  const comments = new Map<string, number>();
  for (const r of rows) {
    addUser(r.creator_id, r.creator_email, r.creator_name, r.creator_photo);
    addUser(r.merger_id, r.merger_email, r.merger_name, r.merger_photo);
    const open = toCount(r.open_comments);
    if (open > 0) comments.set(r.id, open);
  }
  return { users, comments };
}

export async function updateChangeRequest(
  db: DbOrTrx,
  id: string,
  patch: { subject?: string; status?: string },
): Promise<void> {
  const set: Partial<ChangeRequestRow> = { updated_at: nowIso() };
  if (patch.subject !== undefined) set.subject = patch.subject;
  if (patch.status !== undefined) set.status = patch.status;
  await db.updateTable('change_requests').set(set).where('id', '=', id).execute();
}

/**
 * The compare-and-set of {@link advanceChangeRequest}, compiled once (db/prepared.ts): every edit of
 * a change request's content runs it (an autosave about once a second). The row it returns says it
 * moved (a precompiled query answers rows, not a count).
 */
const advanceQuery = prepare((db, p: { id: string; expected: string; revisionId: string; at: string }) =>
  db
    .updateTable('change_requests')
    .set({ revision_id: p.revisionId, updated_at: p.at })
    .where('id', '=', p.id)
    .where('revision_id', '=', p.expected)
    .returning('id'),
);

/**
 * Moves the change request to `revisionId` if it is still at `expected` (another edit may have
 * landed meanwhile: then 409, and the caller's revision is left unused).
 */
export async function advanceChangeRequest(
  db: DbOrTrx,
  id: string,
  expected: string,
  revisionId: string,
): Promise<void> {
  const moved = await advanceQuery.first(db, { id, expected, revisionId, at: nowIso() });
  if (!moved) {
    throw conflict('the change request was edited concurrently; fetch it again and retry');
  }
}

/**
 * Moves the change request to `revisionId`, the result of bringing it up to date with the live
 * revision `ancestor`, if it is still at `expected` and still open or draft (compare-and-set);
 * false when it changed meanwhile.
 */
export async function markUpdated(
  trx: DbOrTrx,
  id: string,
  expected: string,
  update: { revisionId: string; ancestor: string; at: string },
): Promise<boolean> {
  const moved = await trx
    .updateTable('change_requests')
    .set({ revision_id: update.revisionId, revision_merged_ancestor: update.ancestor, updated_at: update.at })
    .where('id', '=', id)
    .where('revision_id', '=', expected)
    .where('status', 'in', ['open', 'draft'])
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) > 0;
}

/**
 * Marks the change request merged into `revisionMerged`, only if it is still open or draft at
 * `expected` (compare-and-set); false when it changed meanwhile.
 */
export async function markMerged(
  trx: DbOrTrx,
  id: string,
  expected: string,
  merge: { by: string; at: string; revisionMerged: string },
): Promise<boolean> {
  const closed = await trx
    .updateTable('change_requests')
    .set({
      status: 'merged',
      merged_by: merge.by,
      merged_at: merge.at,
      revision_merged: merge.revisionMerged,
      updated_at: merge.at,
    })
    .where('id', '=', id)
    .where('revision_id', '=', expected)
    .where('status', 'in', ['open', 'draft'])
    .executeTakeFirst();
  return Number(closed.numUpdatedRows) > 0;
}

/** What presenting change requests needs beyond their rows (see {@link changeRequestExtras}). */
export interface ChangeRequestExtras {
  /** The users they show (creators, mergers), by id. */
  users: Map<string, UserRow>;
  /** Open top-level comments of each change request, by id (absent: none). */
  comments: Map<string, number>;
}

/** What the change requests show besides their rows, in two queries whatever their number. */
export async function changeRequestExtras(db: DbOrTrx, rows: ChangeRequestRow[]): Promise<ChangeRequestExtras> {
  const ids = rows.map((r) => r.id);
  const [users, counted] = await Promise.all([
    findUsersByIds(db, [...new Set(rows.flatMap((r) => [r.created_by, ...(r.merged_by ? [r.merged_by] : [])]))]),
    ids.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('comments')
          .select(['change_request_id', (eb) => eb.fn.countAll().as('count')])
          .where('change_request_id', 'in', ids)
          .where('parent_id', 'is', null)
          .where('resolved_at', 'is', null)
          .groupBy('change_request_id')
          .execute(),
  ]);
  const comments = new Map(counted.map((row) => [row.change_request_id as string, Number(row.count)]));
  return { users, comments };
}

/**
 * Counters of the spaces' change requests, in one query: all of them whatever their status (the
 * official `changeRequests` is the total), and the open and draft ones.
 */
/**
 * The same count for one space (of one status, or all), as a correlated subquery a list selects
 * with its rows (`spaceId` refers to the outer row).
 */
export function changeRequestCount(spaceId: Expression<string>, status?: 'open' | 'draft') {
  let query = expressionBuilder<Database, never>()
    .selectFrom('change_requests')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('change_requests.space_id', '=', spaceId);
  if (status) query = query.where('change_requests.status', '=', status);
  return query;
}

export async function changeRequestCounts(
  db: DbOrTrx,
  spaceIds: string[],
): Promise<Map<string, { total: number; open: number; draft: number }>> {
  const counts = new Map<string, { total: number; open: number; draft: number }>();
  if (spaceIds.length === 0) return counts;
  const rows = await db
    .selectFrom('change_requests')
    .select(['space_id', 'status', (eb) => eb.fn.countAll().as('count')])
    .where('space_id', 'in', spaceIds)
    .groupBy(['space_id', 'status'])
    .execute();
  for (const row of rows) {
    const entry = counts.get(row.space_id) ?? { total: 0, open: 0, draft: 0 };
    const count = toCount(row.count as number | string);
    entry.total += count;
    if (row.status === 'open') entry.open = count;
    else if (row.status === 'draft') entry.draft = count;
    counts.set(row.space_id, entry);
  }
  return counts;
}
