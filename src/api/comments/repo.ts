/** Queries of comments, replies, reactions and commenters. */
import { type Expression, expressionBuilder } from 'kysely';
import type { DbOrTrx } from '../../core/service.js';
import { toCount } from '../../db/dialect.js';
import { prepare } from '../../db/prepared.js';
import type { CommentReactionRow, CommentRow, Database } from '../../db/schema.js';
import { type Page, paginate } from '../../lib/paging.js';
import { type MemberRecord, membersQuery } from '../members/repo.js';

/** Where a thread lives: a space's own discussions, or those of one of its change requests. */
export interface Thread {
  spaceId: string;
  /** null: the space's comments (not those of its change requests). */
  changeRequestId: string | null;
}

function inThread(db: DbOrTrx, thread: Thread) {
  const q = db.selectFrom('comments').selectAll('comments').where('comments.space_id', '=', thread.spaceId);
  return thread.changeRequestId === null
    ? q.where('comments.change_request_id', 'is', null)
    : q.where('comments.change_request_id', '=', thread.changeRequestId);
}

/** A comment row as the arguments of a precompiled query (a type alias, not an interface: see prepare). */
type CommentArgs = { [K in keyof CommentRow]: CommentRow[K] };

/** The insert of every comment and reply, compiled once (db/prepared.ts): each column its own argument. */
const insertCommentQuery = prepare((db, p: CommentArgs) =>
  db.insertInto('comments').values({
    id: p.id,
    space_id: p.space_id,
    change_request_id: p.change_request_id,
    parent_id: p.parent_id,
    review_id: p.review_id,
    revision_id: p.revision_id,
    page_id: p.page_id,
    node_id: p.node_id,
    body: p.body,
    mentions: p.mentions,
    posted_by: p.posted_by,
    posted_at: p.posted_at,
    edited_at: p.edited_at,
    resolved_by: p.resolved_by,
    resolved_at: p.resolved_at,
  }),
);

export async function insertComment(db: DbOrTrx, row: CommentRow): Promise<void> {
  await insertCommentQuery.all(db, row);
}

/** A top-level comment of the thread. */
export async function findComment(db: DbOrTrx, thread: Thread, id: string): Promise<CommentRow | undefined> {
  return inThread(db, thread).where('comments.id', '=', id).where('comments.parent_id', 'is', null).executeTakeFirst();
}

/** A reply to `commentId`. */
export async function findReply(db: DbOrTrx, commentId: string, id: string): Promise<CommentRow | undefined> {
  return db
    .selectFrom('comments')
    .selectAll()
    .where('id', '=', id)
    .where('parent_id', '=', commentId)
    .executeTakeFirst();
}

export interface CommentFilters {
  page?: string;
  limit?: number;
  order?: 'asc' | 'desc';
  status?: 'all' | 'open' | 'resolved';
  targetPage?: string;
  authors?: string[];
}

/** Top-level comments of a thread, newest first unless `order` is `asc`. */
export async function listComments(db: DbOrTrx, thread: Thread, filters: CommentFilters): Promise<Page<CommentRow>> {
  let q = inThread(db, thread).where('comments.parent_id', 'is', null);
  if (filters.status === 'open') q = q.where('comments.resolved_at', 'is', null);
  if (filters.status === 'resolved') q = q.where('comments.resolved_at', 'is not', null);
  if (filters.targetPage) q = q.where('comments.page_id', '=', filters.targetPage);
  if (filters.authors && filters.authors.length > 0) q = q.where('comments.posted_by', 'in', filters.authors);
  const direction = filters.order ?? 'desc';
  return paginate(
    q,
    [
      { column: 'comments.posted_at', direction, value: (r) => r.posted_at },
      { column: 'comments.id', direction, value: (r) => r.id },
    ],
    filters,
  );
}

/** Replies to a comment, oldest first (a conversation reads down). */
export async function listReplies(
  db: DbOrTrx,
  commentId: string,
  options: { page?: string; limit?: number },
): Promise<Page<CommentRow>> {
  const q = db.selectFrom('comments').selectAll('comments').where('comments.parent_id', '=', commentId);
  return paginate(
    q,
    [
      { column: 'comments.posted_at', direction: 'asc', value: (r) => r.posted_at },
      { column: 'comments.id', direction: 'asc', value: (r) => r.id },
    ],
    options,
  );
}

export async function updateComment(
  db: DbOrTrx,
  id: string,
  set: Partial<Pick<CommentRow, 'body' | 'mentions' | 'edited_at' | 'resolved_at' | 'resolved_by'>>,
): Promise<void> {
  if (Object.keys(set).length === 0) return;
  await db.updateTable('comments').set(set).where('id', '=', id).execute();
}

/** Deletes a comment and its replies (reactions follow by cascade). */
export async function deleteComment(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('comments').where('parent_id', '=', id).execute();
  await db.deleteFrom('comments').where('id', '=', id).execute();
}

export async function addReactions(
  db: DbOrTrx,
  commentId: string,
  userId: string,
  emojis: string[],
  at: string,
): Promise<void> {
  for (const emoji of new Set(emojis)) {
    await db
      .insertInto('comment_reactions')
      .values({ comment_id: commentId, user_id: userId, emoji, reacted_at: at })
      .onConflict((oc) => oc.columns(['comment_id', 'user_id', 'emoji']).doNothing())
      .execute();
  }
}

export async function removeReactions(db: DbOrTrx, commentId: string, userId: string, emojis: string[]) {
  if (emojis.length === 0) return;
  await db
    .deleteFrom('comment_reactions')
    .where('comment_id', '=', commentId)
    .where('user_id', '=', userId)
    .where('emoji', 'in', emojis)
    .execute();
}

/** Reactions to the comments, oldest first. */
export async function reactionsOf(db: DbOrTrx, commentIds: string[]): Promise<CommentReactionRow[]> {
  if (commentIds.length === 0) return [];
  return db
    .selectFrom('comment_reactions')
    .selectAll()
    .where('comment_id', 'in', commentIds)
    .orderBy('reacted_at')
    .orderBy('user_id')
    .execute();
}

export interface ReplyStat {
  parent_id: string;
  posted_by: string;
  count: number;
  last: string;
}

/** Per comment and replier: how many replies, and when the last one was posted. */
export async function replyStats(db: DbOrTrx, commentIds: string[]): Promise<ReplyStat[]> {
  if (commentIds.length === 0) return [];
  const rows = await db
    .selectFrom('comments')
    .select(['parent_id', 'posted_by', (eb) => eb.fn.countAll().as('count'), (eb) => eb.fn.max('posted_at').as('last')])
    .where('parent_id', 'in', commentIds)
    .groupBy(['parent_id', 'posted_by'])
    .execute();
  return rows.map((r) => ({
    parent_id: r.parent_id as string,
    posted_by: r.posted_by,
    count: toCount(r.count as number | string),
    last: String(r.last),
  }));
}

/**
 * Members of the organization who posted a comment or a reply in the thread, by user id.
 * Authors who left the organization are not members any more and are not listed.
 */
export async function listCommenters(
  db: DbOrTrx,
  organizationId: string,
  thread: Thread,
  options: { page?: string; limit?: number },
): Promise<Page<MemberRecord>> {
  const authors = inThread(db, thread).clearSelect().select('comments.posted_by');
  const q = membersQuery(db, organizationId).where('members.user_id', 'in', authors);
  return paginate(q, [{ column: 'members.user_id', direction: 'asc', value: (r) => r.user_id }], options);
}

/**
 * Open top-level comments per space (the space's own, not its change requests'), for a list of
 * spaces in one query: the `comments` counter of Space objects.
 */
/** The same count for one space, as a correlated subquery a list selects with its rows. */
export function openCommentCount(spaceId: Expression<string>) {
  return expressionBuilder<Database, never>()
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('comments.space_id', '=', spaceId)
    .where('comments.change_request_id', 'is', null)
    .where('comments.parent_id', 'is', null)
    .where('comments.resolved_at', 'is', null);
}

export async function openCommentCounts(db: DbOrTrx, spaceIds: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (spaceIds.length === 0) return counts;
  const rows = await db
    .selectFrom('comments')
    .select(['space_id', (eb) => eb.fn.countAll().as('count')])
    .where('space_id', 'in', spaceIds)
    .where('change_request_id', 'is', null)
    .where('parent_id', 'is', null)
    .where('resolved_at', 'is', null)
    .groupBy('space_id')
    .execute();
  for (const row of rows) counts.set(row.space_id, toCount(row.count as number | string));
  return counts;
}
