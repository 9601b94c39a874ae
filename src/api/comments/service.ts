/**
 * Every change of comments and replies, on a space or in a change request. Members with the
 * `comment` role (or higher) post, reply and react; authors edit their own bodies; authors and
 * space admins resolve and delete. Who cannot read the space gets 404, readers 403.
 */
import type { Static } from 'typebox';
import type { JsonDocument } from '../../content/document.js';
import { findPage, loadRevision } from '../../content/store.js';
import type { DbOrTrx } from '../../core/service.js';
import { actingUser, inTransaction, type ServiceContext } from '../../core/service.js';
import type { ChangeRequestRow, CommentRow, SpaceRow } from '../../db/schema.js';
import { declareChangeRequestWrite, declareSpaceWrite } from '../../db/write-scope.js';
import { recordEvent } from '../../events/record.js';
import type { EventType } from '../../events/types.js';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Role } from '../../lib/schemas.js';
import { nowIso } from '../../lib/time.js';
import { authorizeSpace } from '../../permissions/content.js';
import { loadViewers } from '../../permissions/resolver.js';
import { atLeast } from '../../permissions/roles.js';
import { authorizeChangeRequest } from '../change-requests/open.js';
import { findMembersByKeys } from '../members/repo.js';
import { type BodyInput, mentionCandidates, mentionedUsers, readBody } from './body.js';
import { loadCommentContext, newCommentContext } from './load.js';
import { presentComment, presentReply } from './present.js';
import {
  addReactions,
  deleteComment as deleteCommentRow,
  findComment,
  findReply,
  insertComment,
  removeReactions,
  type Thread,
  updateComment as updateCommentRow,
} from './repo.js';
import type { Comment, CommentReply } from './schemas.js';

/** Most distinct members one body may mention. */
export const MAX_MENTIONS = 50;

/** A space, or a change request of it, as the path names it. */
export interface ThreadRef {
  spaceId: string;
  /** The change request id or number; undefined for the space's own comments. */
  changeRequest?: string;
}

export interface OpenThread {
  space: SpaceRow;
  changeRequest: ChangeRequestRow | null;
  thread: Thread;
  role: Role;
}

/** Authorizes the caller on the thread's space (404/403) and resolves the change request (404). */
export async function openThread(
  ctx: ServiceContext,
  ref: ThreadRef,
  needed: Role,
  action: string,
): Promise<OpenThread> {
  const userId = actingUser(ctx).id;
  if (ref.changeRequest === undefined) {
    const { row: space, role } = await authorizeSpace(ctx.db, userId, ref.spaceId, needed, action);
    return { space, changeRequest: null, thread: { spaceId: space.id, changeRequestId: null }, role };
  }
  const { space, changeRequest, role } = await authorizeChangeRequest(
    ctx.db,
    userId,
    ref.spaceId,
    ref.changeRequest,
    needed,
    action,
  );
  return { space, changeRequest, thread: { spaceId: space.id, changeRequestId: changeRequest.id }, role };
}

/** A top-level comment of the thread, or 404. */
export async function requireComment(ctx: ServiceContext, open: OpenThread, commentId: string): Promise<CommentRow> {
  const comment = await findComment(ctx.db, open.thread, commentId);
  if (!comment) throw notFound(`comment ${commentId} not found`);
  return comment;
}

/** A reply of a comment of the thread, or 404. */
export async function requireReply(
  ctx: ServiceContext,
  open: OpenThread,
  commentId: string,
  replyId: string,
): Promise<{ comment: CommentRow; reply: CommentRow }> {
  const comment = await requireComment(ctx, open, commentId);
  const reply = await findReply(ctx.db, comment.id, replyId);
  if (!reply) throw notFound(`reply ${replyId} not found`);
  return { comment, reply };
}

/**
 * The stored document of a body and the members it mentions. Markdown `@word`s that name a member
 * who can read the space become mentions (others stay text); a JSON mention of anyone else is a 400.
 */
async function prepareBody(
  ctx: ServiceContext,
  space: SpaceRow,
  input: BodyInput,
  field: string,
): Promise<{ body: string; mentions: string }> {
  const candidates = 'markdown' in input ? mentionCandidates(input.markdown).slice(0, MAX_MENTIONS * 2) : [];
  const members = await findMembersByKeys(ctx.db, space.organization_id, candidates);
  const readers = await spaceReaders(
    ctx,
    space,
    members.map((m) => m.user_id),
  );
  const byWord = new Map<string, string>();
  for (const m of members) {
    if (!readers.has(m.user_id)) continue;
    byWord.set(m.user_id, m.user_id);
    byWord.set(m.email.toLowerCase(), m.user_id);
  }
  const document: JsonDocument = readBody(input, (word) => byWord.get(word) ?? byWord.get(word.toLowerCase()), field);
  const mentioned = mentionedUsers(document);
  if (mentioned.length > MAX_MENTIONS) throw badRequest(`${field} mentions more than ${MAX_MENTIONS} members`);
  const allowed = await spaceReaders(ctx, space, mentioned);
  const stranger = mentioned.find((id) => !allowed.has(id));
  if (stranger) throw badRequest(`${field} mentions user ${stranger}, who is not a member able to read this space`);
  return { body: JSON.stringify(document), mentions: JSON.stringify(mentioned) };
}

/** Which of `userIds` can read the space. */
async function spaceReaders(ctx: ServiceContext, space: SpaceRow, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const viewers = await loadViewers(ctx.db, space.organization_id, userIds);
  return new Set(userIds.filter((id) => atLeast(viewers.get(id)?.roleOn({ type: 'space', ...space }), 'read')));
}

/**
 * Records a change of a comment or a reply (`comment.*`) in the transaction that makes it, with the
 * object as the API presents it (a reply is a `comment-reply`).
 */
export async function recordCommentEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  open: OpenThread,
  type: Extract<EventType, `comment.${string}`>,
  row: CommentRow,
): Promise<Static<typeof Comment> | Static<typeof CommentReply>> {
  const viewer = { userId: actingUser(ctx).id, role: open.role };
  const view =
    type === 'comment.created'
      ? await newCommentContext(trx, ctx.urls, viewer, row)
      : await loadCommentContext(trx, ctx.urls, viewer, [row]);
  const object = row.parent_id
    ? presentReply(view, open.thread, row.parent_id, row)
    : presentComment(view, open.thread, row);
  // The change is the thread's: its change request's, or its space's (db/scope-parts.ts).
  const { organization_id: organizationId } = open.space;
  const { spaceId, changeRequestId } = open.thread;
  if (changeRequestId === null) declareSpaceWrite(organizationId, spaceId);
  else declareChangeRequestWrite(organizationId, spaceId, changeRequestId, { sameStatus: true }); // status unchanged
  await recordEvent(trx, ctx, {
    type,
    organizationId: open.space.organization_id,
    target: { object: object.object, id: row.id },
    data: { object },
  });
  return object;
}

export interface PostCommentInput {
  body: BodyInput;
  page?: string;
  node?: string;
  /** Set when the comment comes with a review (see the reviews area). */
  reviewId?: string;
}

type Placement = Pick<
  CommentRow,
  'space_id' | 'change_request_id' | 'parent_id' | 'review_id' | 'revision_id' | 'page_id' | 'node_id'
>;

/**
 * Writes a new comment or reply of the acting user at `placement`, and records `comment.created`;
 * with the row, its event's object: the caller's answer (the same viewer, format and data).
 */
async function insertNew(
  ctx: ServiceContext,
  open: OpenThread,
  input: BodyInput,
  placement: Placement,
): Promise<{ row: CommentRow; presented: Static<typeof Comment> | Static<typeof CommentReply> }> {
  const { body, mentions } = await prepareBody(ctx, open.space, input, 'body/body');
  const row: CommentRow = {
    id: newId(),
    space_id: placement.space_id,
    change_request_id: placement.change_request_id,
    parent_id: placement.parent_id,
    review_id: placement.review_id,
    revision_id: placement.revision_id,
    page_id: placement.page_id,
    node_id: placement.node_id,
    body,
    mentions,
    posted_by: actingUser(ctx).id,
    posted_at: nowIso(),
    edited_at: null,
    resolved_by: null,
    resolved_at: null,
  };
  const presented = await inTransaction(ctx.db, async (trx) => {
    await insertComment(trx, row);
    return recordCommentEvent(trx, ctx, open, 'comment.created', row);
  });
  return { row, presented };
}

/** Posts a top-level comment, on a page of the thread's current revision when `page` is given. */
export async function postComment(ctx: ServiceContext, ref: ThreadRef, input: PostCommentInput) {
  // A review's comment comes with the review, which has its own rule (requested reviewers may review).
  const open = await openThread(ctx, ref, input.reviewId ? 'read' : 'comment', 'comment');
  const revisionId = open.changeRequest?.revision_id ?? open.space.revision_id;
  if (input.node !== undefined && input.page === undefined) throw badRequest('body/node needs body/page');
  if (input.page !== undefined) {
    const snapshot = await loadRevision(ctx.db, open.space, revisionId);
    if (!snapshot || !findPage(snapshot.pages, input.page)) {
      throw badRequest(`body/page: page ${input.page} is not in revision ${revisionId}`);
    }
  }
  const { row, presented } = await insertNew(ctx, open, input.body, {
    space_id: open.space.id,
    change_request_id: open.changeRequest?.id ?? null,
    parent_id: null,
    review_id: input.reviewId ?? null,
    revision_id: revisionId,
    page_id: input.page ?? null,
    node_id: input.node ?? null,
  });
  // A top-level row: presented as a Comment.
  return { ...open, comment: row, presented: presented as Static<typeof Comment> };
}

export interface UpdateInput {
  body?: BodyInput;
  resolved?: boolean;
  addedReactions?: string[];
  removedReactions?: string[];
}

/** Applies an update to a comment or a reply (`row`), checking who may change what. */
async function applyUpdate(ctx: ServiceContext, open: OpenThread, row: CommentRow, input: UpdateInput) {
  const user = actingUser(ctx);
  const own = row.posted_by === user.id;
  if (input.body !== undefined && !own) throw forbidden('only its author can edit a comment');
  if (input.resolved !== undefined && !own && !atLeast(open.role, 'admin')) {
    throw forbidden('only its author or a space admin can resolve or reopen a comment');
  }
  const now = nowIso();
  const set: Parameters<typeof updateCommentRow>[2] = {};
  if (input.body !== undefined) {
    Object.assign(set, await prepareBody(ctx, open.space, input.body, 'body/body'), { edited_at: now });
  }
  if (input.resolved === true && !row.resolved_at) Object.assign(set, { resolved_at: now, resolved_by: user.id });
  if (input.resolved === false) Object.assign(set, { resolved_at: null, resolved_by: null });
  const updated = { ...row, ...set };
  await inTransaction(ctx.db, async (trx) => {
    await updateCommentRow(trx, row.id, set);
    await addReactions(trx, row.id, user.id, input.addedReactions ?? [], now);
    await removeReactions(trx, row.id, user.id, input.removedReactions ?? []);
    await recordCommentEvent(trx, ctx, open, 'comment.updated', updated);
  });
  return updated;
}

export async function updateComment(ctx: ServiceContext, ref: ThreadRef, commentId: string, input: UpdateInput) {
  const open = await openThread(ctx, ref, 'comment', 'update comments');
  const comment = await applyUpdate(ctx, open, await requireComment(ctx, open, commentId), input);
  return { ...open, comment };
}

/** Deletes a comment with its replies: its author or a space admin. */
export async function deleteComment(ctx: ServiceContext, ref: ThreadRef, commentId: string): Promise<void> {
  const open = await openThread(ctx, ref, 'comment', 'delete comments');
  const comment = await requireComment(ctx, open, commentId);
  requireDeletable(ctx, open, comment);
  await inTransaction(ctx.db, async (trx) => {
    await recordCommentEvent(trx, ctx, open, 'comment.deleted', comment);
    await deleteCommentRow(trx, comment.id);
  });
}

function requireDeletable(ctx: ServiceContext, open: OpenThread, row: CommentRow): void {
  if (row.posted_by !== actingUser(ctx).id && !atLeast(open.role, 'admin')) {
    throw forbidden('only its author or a space admin can delete a comment');
  }
}

export async function postReply(ctx: ServiceContext, ref: ThreadRef, commentId: string, input: { body: BodyInput }) {
  const open = await openThread(ctx, ref, 'comment', 'reply to comments');
  const comment = await requireComment(ctx, open, commentId);
  const { row, presented } = await insertNew(ctx, open, input.body, {
    ...comment,
    parent_id: comment.id,
    review_id: null,
  });
  // A reply: presented as a CommentReply.
  return { ...open, comment, reply: row, presented: presented as Static<typeof CommentReply> };
}

export async function updateReply(
  ctx: ServiceContext,
  ref: ThreadRef,
  commentId: string,
  replyId: string,
  input: Omit<UpdateInput, 'resolved'>,
) {
  const open = await openThread(ctx, ref, 'comment', 'update replies');
  const { comment, reply } = await requireReply(ctx, open, commentId, replyId);
  return { ...open, comment, reply: await applyUpdate(ctx, open, reply, input) };
}

export async function deleteReply(ctx: ServiceContext, ref: ThreadRef, commentId: string, replyId: string) {
  const open = await openThread(ctx, ref, 'comment', 'delete replies');
  const { reply } = await requireReply(ctx, open, commentId, replyId);
  requireDeletable(ctx, open, reply);
  await inTransaction(ctx.db, async (trx) => {
    await recordCommentEvent(trx, ctx, open, 'comment.deleted', reply);
    await deleteCommentRow(trx, reply.id);
  });
}
