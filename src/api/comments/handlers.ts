/**
 * The handlers of the comments endpoints, shared by the space and the change-request variant of each
 * (routes.ts declares every endpoint by its own path and operationId). Each handler is typed with the
 * params, query and body its route's schema validates; reads call the repos, changes the service.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { CommentRow } from '../../db/schema.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import type { Role } from '../../lib/schemas.js';
import { presentMembers } from '../members/present.js';
import { memberCounts } from '../members/repo.js';
import type { BodyFormat, BodyInput } from './body.js';
import { loadCommentContext } from './load.js';
import { commentPath, presentComment, presentReply, replyPath } from './present.js';
import { listCommenters, listComments, listReplies } from './repo.js';
import type {
  CommentBody,
  FormatQuery,
  ListCommentersQuery,
  ListCommentsQuery,
  ListRepliesQuery,
  PostCommentBody,
  PostReplyBody,
  UpdateCommentBody,
  UpdateReplyBody,
} from './schemas.js';
import {
  deleteComment,
  deleteReply,
  openThread,
  postComment,
  postReply,
  requireComment,
  requireReply,
  type ThreadRef,
  updateComment,
  updateReply,
} from './service.js';

/** The path parameters of either variant: the change request is absent on a space's own thread. */
interface ThreadParams {
  spaceId: string;
  changeRequestId?: string;
}
type CommentParams = ThreadParams & { commentId: string };
type ReplyParams = CommentParams & { commentReplyId: string };

type Req<P, Q = unknown, B = unknown> = FastifyRequest<{ Params: P; Querystring: Q; Body: B }>;

function refOf(params: ThreadParams): ThreadRef {
  const { spaceId, changeRequestId } = params;
  return changeRequestId === undefined ? { spaceId } : { spaceId, changeRequest: changeRequestId };
}

/**
 * The body as the service takes it. The schema's JSON document is the wire shape of the stored one
 * (`JsonDocumentSchema` validates exactly what `JsonDocument` types), which TypeBox cannot prove.
 */
const bodyInput = (body: Static<typeof CommentBody>) => body as BodyInput;

export function commentHandlers(app: App) {
  const viewerOf = (request: FastifyRequest, open: { role: Role }) => ({
    userId: caller(request).user.id,
    role: open.role,
  });
  /** The thread the request names, for a caller who may read it (404/403 otherwise). */
  const readThread = async (request: FastifyRequest<{ Params: ThreadParams }>) => {
    const ctx = serviceContext(app, request);
    return { ctx, open: await openThread(ctx, refOf(request.params), 'read', 'read it') };
  };
  /** What presenting `rows` to the caller needs. */
  const viewFor = (request: FastifyRequest, open: { role: Role }, rows: CommentRow[], format?: BodyFormat) =>
    loadCommentContext(app.db, app.urls, viewerOf(request, open), rows, format);

  return {
    async list(request: Req<ThreadParams, Static<typeof ListCommentsQuery>>) {
      const { open } = await readThread(request);
      const page = await listComments(app.db, open.thread, request.query);
      const view = await viewFor(request, open, page.items, request.query.format);
      return { ...page, items: page.items.map((row) => presentComment(view, open.thread, row)) };
    },

    async post(request: Req<ThreadParams, unknown, Static<typeof PostCommentBody>>, reply: FastifyReply) {
      const { body, page, node } = request.body;
      const posted = await postComment(serviceContext(app, request), refOf(request.params), {
        body: bodyInput(body),
        page,
        node,
      });
      // The comment as its event presents it to the caller: nothing read again.
      reply.code(201).header('location', app.urls.api(commentPath(posted.thread, posted.comment.id)));
      return posted.presented;
    },

    async get(request: Req<CommentParams, Static<typeof FormatQuery>>) {
      const { ctx, open } = await readThread(request);
      const row = await requireComment(ctx, open, request.params.commentId);
      const view = await viewFor(request, open, [row], request.query.format);
      return presentComment(view, open.thread, row);
    },

    async update(request: Req<CommentParams, unknown, Static<typeof UpdateCommentBody>>) {
      const { body, ...rest } = request.body;
      const ctx = serviceContext(app, request);
      const updated = await updateComment(ctx, refOf(request.params), request.params.commentId, {
        ...rest,
        body: body === undefined ? undefined : bodyInput(body),
      });
      const view = await viewFor(request, updated, [updated.comment]);
      return presentComment(view, updated.thread, updated.comment);
    },

    async remove(request: Req<CommentParams>, reply: FastifyReply) {
      await deleteComment(serviceContext(app, request), refOf(request.params), request.params.commentId);
      return reply.code(204).send(null);
    },

    async listReplies(request: Req<CommentParams, Static<typeof ListRepliesQuery>>) {
      const { ctx, open } = await readThread(request);
      const parent = await requireComment(ctx, open, request.params.commentId);
      const page = await listReplies(app.db, parent.id, request.query);
      const view = await viewFor(request, open, page.items, request.query.format);
      return { ...page, items: page.items.map((row) => presentReply(view, open.thread, parent.id, row)) };
    },

    async postReply(request: Req<CommentParams, unknown, Static<typeof PostReplyBody>>, reply: FastifyReply) {
      const ctx = serviceContext(app, request);
      const posted = await postReply(ctx, refOf(request.params), request.params.commentId, {
        body: bodyInput(request.body.body),
      });
      reply.code(201).header('location', app.urls.api(replyPath(posted.thread, posted.comment.id, posted.reply.id)));
      return posted.presented;
    },

    async getReply(request: Req<ReplyParams, Static<typeof FormatQuery>>) {
      const { ctx, open } = await readThread(request);
      const { commentId, commentReplyId } = request.params;
      const found = await requireReply(ctx, open, commentId, commentReplyId);
      const format = request.query.format;
      const view = await viewFor(request, open, [found.reply], format);
      return presentReply(view, open.thread, found.comment.id, found.reply);
    },

    async updateReply(request: Req<ReplyParams, unknown, Static<typeof UpdateReplyBody>>) {
      const { body, ...rest } = request.body;
      const { commentId, commentReplyId } = request.params;
      const ctx = serviceContext(app, request);
      const updated = await updateReply(ctx, refOf(request.params), commentId, commentReplyId, {
        ...rest,
        body: body === undefined ? undefined : bodyInput(body),
      });
      const view = await viewFor(request, updated, [updated.reply]);
      return presentReply(view, updated.thread, updated.comment.id, updated.reply);
    },

    async removeReply(request: Req<ReplyParams>, reply: FastifyReply) {
      const { commentId, commentReplyId } = request.params;
      await deleteReply(serviceContext(app, request), refOf(request.params), commentId, commentReplyId);
      return reply.code(204).send(null);
    },

    async commenters(request: Req<ThreadParams, Static<typeof ListCommentersQuery>>) {
      const { open } = await readThread(request);
      const organizationId = open.space.organization_id;
      const page = await listCommenters(app.db, organizationId, open.thread, request.query);
      const counts = await memberCounts(
        app.db,
        organizationId,
        page.items.map((r) => r.user_id),
      );
      return { ...page, items: presentMembers(page.items, counts, app.urls) };
    },
  };
}
