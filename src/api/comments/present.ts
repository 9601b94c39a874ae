/**
 * Comment and CommentReply objects, built from rows and what the service loaded for them (users,
 * reactions, reply counts) in one pass per list. Pure: no query here.
 */
import type { Static } from 'typebox';
import type { JsonDocument } from '../../content/document.js';
import type { CommentReactionRow, CommentRow, UserRow } from '../../db/schema.js';
import type { Role } from '../../lib/schemas.js';
import type { Urls } from '../../lib/urls.js';
import { atLeast } from '../../permissions/roles.js';
import { presentUser } from '../users/present.js';
import { type BodyFormat, presentBody } from './body.js';
import type { ReplyStat, Thread } from './repo.js';
import type { Comment, CommentReply } from './schemas.js';

/** Everything presenting a batch of comments needs besides the rows. */
export interface CommentContext {
  urls: Urls;
  users: Map<string, UserRow>;
  reactions: CommentReactionRow[];
  replyStats: ReplyStat[];
  /** The caller and their role on the space: the `permissions` flags. */
  viewer: { userId: string; role: Role };
  format: BodyFormat;
}

export function threadPath(thread: Thread): string {
  const space = `/spaces/${thread.spaceId}`;
  return thread.changeRequestId ? `${space}/change-requests/${thread.changeRequestId}` : space;
}

export function commentPath(thread: Thread, commentId: string): string {
  return `${threadPath(thread)}/comments/${commentId}`;
}

export function replyPath(thread: Thread, commentId: string, replyId: string): string {
  return `${commentPath(thread, commentId)}/replies/${replyId}`;
}

function user(ctx: CommentContext, id: string) {
  const row = ctx.users.get(id) ?? { id, email: '', display_name: 'Deleted user', photo_url: null };
  return presentUser(row, ctx.urls);
}

/** The users every row of a batch refers to (authors, resolvers, reactors, repliers). */
export function referencedUsers(rows: CommentRow[], reactions: CommentReactionRow[], stats: ReplyStat[]): string[] {
  return [
    ...new Set([
      ...rows.flatMap((r) => [r.posted_by, ...(r.resolved_by ? [r.resolved_by] : [])]),
      ...reactions.map((r) => r.user_id),
      ...stats.map((s) => s.posted_by),
    ]),
  ];
}

function reactionsOf(ctx: CommentContext, commentId: string) {
  const byEmoji = new Map<string, CommentReactionRow[]>();
  for (const r of ctx.reactions) {
    if (r.comment_id !== commentId) continue;
    byEmoji.set(r.emoji, [...(byEmoji.get(r.emoji) ?? []), r]);
  }
  return [...byEmoji].map(([emoji, list]) => ({
    emoji,
    count: list.length,
    users: list.map((r) => ({ user: user(ctx, r.user_id), reactedAt: r.reacted_at })),
  }));
}

function permissions(ctx: CommentContext, row: CommentRow) {
  const own = row.posted_by === ctx.viewer.userId;
  return {
    view: true,
    edit: own,
    reply: atLeast(ctx.viewer.role, 'comment'),
    delete: own || atLeast(ctx.viewer.role, 'admin'),
  };
}

function body(ctx: CommentContext, row: CommentRow) {
  return presentBody(JSON.parse(row.body) as JsonDocument, ctx.format);
}

export function presentComment(ctx: CommentContext, thread: Thread, row: CommentRow): Static<typeof Comment> {
  const stats = ctx.replyStats.filter((s) => s.parent_id === row.id);
  return {
    object: 'comment',
    id: row.id,
    postedBy: user(ctx, row.posted_by),
    postedAt: row.posted_at,
    ...(row.edited_at ? { editedAt: row.edited_at } : {}),
    reactions: reactionsOf(ctx, row.id),
    replies: stats.reduce((sum, s) => sum + s.count, 0),
    repliers: stats.map((s) => ({ updatedAt: s.last, count: s.count, user: user(ctx, s.posted_by) })),
    body: body(ctx, row),
    target: {
      ...(row.node_id ? { node: { id: row.node_id } } : {}),
      ...(row.change_request_id ? { changeRequest: row.change_request_id } : {}),
      ...(row.review_id ? { review: row.review_id } : {}),
      ...(row.page_id ? { page: { id: row.page_id } } : {}),
      space: row.space_id,
      revision: row.revision_id,
    },
    urls: { location: ctx.urls.api(commentPath(thread, row.id)) },
    permissions: permissions(ctx, row),
    ...(row.resolved_at && row.resolved_by
      ? { status: 'resolved' as const, resolvedAt: row.resolved_at, resolvedBy: user(ctx, row.resolved_by) }
      : { status: 'open' as const }),
  };
}

export function presentReply(
  ctx: CommentContext,
  thread: Thread,
  commentId: string,
  row: CommentRow,
): Static<typeof CommentReply> {
  return {
    object: 'comment-reply',
    id: row.id,
    postedBy: user(ctx, row.posted_by),
    postedAt: row.posted_at,
    ...(row.edited_at ? { editedAt: row.edited_at } : {}),
    reactions: reactionsOf(ctx, row.id),
    body: body(ctx, row),
    urls: { location: ctx.urls.api(replyPath(thread, commentId, row.id)) },
    permissions: permissions(ctx, row),
  };
}
