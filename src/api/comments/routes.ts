/**
 * Comments and replies, the same ten operations on a space (`…InSpace`) and in a change request
 * (`…InChangeRequest`), and who commented. Posting answers 201 with Location (the official
 * document lists 200; the body is the same Comment), deleting 204.
 */
import type { FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { App } from '../../core/app.js';
import { caller } from '../../core/auth.js';
import { PagedList } from '../../core/paging.js';
import { NoContent, type Role } from '../../core/schemas.js';
import { serviceContext } from '../../core/service.js';
import { presentMembers } from '../members/present.js';
import { memberCounts } from '../members/repo.js';
import { Member } from '../members/schemas.js';
import type { BodyInput } from './body.js';
import { loadCommentContext } from './load.js';
import { commentPath, presentComment, presentReply, replyPath } from './present.js';
import { listCommenters, listComments, listReplies } from './repo.js';
import {
  ChangeRequestCommentParams,
  ChangeRequestParams,
  ChangeRequestReplyParams,
  Comment,
  CommentReply,
  FormatQuery,
  ListCommentersQuery,
  ListCommentsQuery,
  ListRepliesQuery,
  PostCommentBody,
  PostReplyBody,
  SpaceCommentParams,
  SpaceParams,
  SpaceReplyParams,
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

type Operation = (typeof OPERATIONS)[number];
const OPERATIONS = [
  'listComments',
  'postComment',
  'getComment',
  'updateComment',
  'deleteComment',
  'listCommentReplies',
  'postCommentReply',
  'getCommentReply',
  'updateCommentReply',
  'deleteCommentReply',
  'listCommenters',
] as const;

/**
 * The space and the change-request variants: the same handlers, each with its paths and operationIds
 * written out (so that searching the code for either finds the declaration).
 */
interface Variant {
  paths: { comments: string; comment: string; replies: string; reply: string; commenters: string };
  operationIds: Record<Operation, string>;
  tags: string[];
  params: { thread: TSchema; comment: TSchema; reply: TSchema };
}

const VARIANTS: Variant[] = [
  {
    paths: {
      comments: '/spaces/:spaceId/comments',
      comment: '/spaces/:spaceId/comments/:commentId',
      replies: '/spaces/:spaceId/comments/:commentId/replies',
      reply: '/spaces/:spaceId/comments/:commentId/replies/:commentReplyId',
      commenters: '/spaces/:spaceId/commenters',
    },
    operationIds: {
      listComments: 'listCommentsInSpace',
      postComment: 'postCommentInSpace',
      getComment: 'getCommentInSpace',
      updateComment: 'updateCommentInSpace',
      deleteComment: 'deleteCommentInSpace',
      listCommentReplies: 'listCommentRepliesInSpace',
      postCommentReply: 'postCommentReplyInSpace',
      getCommentReply: 'getCommentReplyInSpace',
      updateCommentReply: 'updateCommentReplyInSpace',
      deleteCommentReply: 'deleteCommentReplyInSpace',
      listCommenters: 'listCommentersInSpace',
    },
    tags: ['space-comments'],
    params: { thread: SpaceParams, comment: SpaceCommentParams, reply: SpaceReplyParams },
  },
  {
    paths: {
      comments: '/spaces/:spaceId/change-requests/:changeRequestId/comments',
      comment: '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId',
      replies: '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies',
      reply: '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:commentReplyId',
      commenters: '/spaces/:spaceId/change-requests/:changeRequestId/commenters',
    },
    operationIds: {
      listComments: 'listCommentsInChangeRequest',
      postComment: 'postCommentInChangeRequest',
      getComment: 'getCommentInChangeRequest',
      updateComment: 'updateCommentInChangeRequest',
      deleteComment: 'deleteCommentInChangeRequest',
      listCommentReplies: 'listCommentRepliesInChangeRequest',
      postCommentReply: 'postCommentReplyInChangeRequest',
      getCommentReply: 'getCommentReplyInChangeRequest',
      updateCommentReply: 'updateCommentReplyInChangeRequest',
      deleteCommentReply: 'deleteCommentReplyInChangeRequest',
      listCommenters: 'listCommentersInChangeRequest',
    },
    tags: ['change-request-comments'],
    params: { thread: ChangeRequestParams, comment: ChangeRequestCommentParams, reply: ChangeRequestReplyParams },
  },
];

interface PathParams {
  spaceId: string;
  changeRequestId?: string;
  commentId: string;
  commentReplyId: string;
}

function refOf(request: FastifyRequest): ThreadRef {
  const { spaceId, changeRequestId } = request.params as PathParams;
  return changeRequestId === undefined ? { spaceId } : { spaceId, changeRequest: changeRequestId };
}

const paramsOf = (request: FastifyRequest) => request.params as PathParams;

export default async function commentRoutes(app: App) {
  for (const v of VARIANTS) registerVariant(app, v);
}

function registerVariant(app: App, v: Variant) {
  const { tags, operationIds: id } = v;
  const { comments, comment, replies, reply: oneReply } = v.paths;
  const read = { scope: 'space:read' } as const;
  const write = { scope: 'space:write' } as const;
  const viewerOf = (request: FastifyRequest, open: { role: Role }) => ({
    userId: caller(request).user.id,
    role: open.role,
  });

  app.get(
    comments,
    {
      config: read,
      schema: {
        operationId: id.listComments,
        tags,
        params: v.params.thread,
        querystring: ListCommentsQuery,
        response: { 200: PagedList(Comment) },
      },
    },
    async (request) => {
      const ctx = serviceContext(app, request);
      const open = await openThread(ctx, refOf(request), 'read', 'read it');
      const query = request.query as Static<typeof ListCommentsQuery>;
      const page = await listComments(app.db, open.thread, query);
      const view = await loadCommentContext(app.db, app.urls, viewerOf(request, open), page.items, query.format);
      return { ...page, items: page.items.map((row) => presentComment(view, open.thread, row)) };
    },
  );

  app.post(
    comments,
    {
      config: write,
      schema: {
        operationId: id.postComment,
        tags,
        params: v.params.thread,
        body: PostCommentBody,
        response: { 201: Comment },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof PostCommentBody>;
      const posted = await postComment(serviceContext(app, request), refOf(request), {
        body: body.body as BodyInput,
        page: body.page,
        node: body.node,
      });
      const view = await loadCommentContext(app.db, app.urls, viewerOf(request, posted), [posted.comment]);
      reply.code(201).header('location', app.urls.api(commentPath(posted.thread, posted.comment.id)));
      return presentComment(view, posted.thread, posted.comment);
    },
  );

  app.get(
    comment,
    {
      config: read,
      schema: {
        operationId: id.getComment,
        tags,
        params: v.params.comment,
        querystring: FormatQuery,
        response: { 200: Comment },
      },
    },
    async (request) => {
      const ctx = serviceContext(app, request);
      const open = await openThread(ctx, refOf(request), 'read', 'read it');
      const row = await requireComment(ctx, open, paramsOf(request).commentId);
      const format = (request.query as Static<typeof FormatQuery>).format;
      const view = await loadCommentContext(app.db, app.urls, viewerOf(request, open), [row], format);
      return presentComment(view, open.thread, row);
    },
  );

  app.put(
    comment,
    {
      config: write,
      schema: {
        operationId: id.updateComment,
        tags,
        params: v.params.comment,
        body: UpdateCommentBody,
        response: { 200: Comment },
      },
    },
    async (request) => {
      const body = request.body as Static<typeof UpdateCommentBody>;
      const updated = await updateComment(serviceContext(app, request), refOf(request), paramsOf(request).commentId, {
        ...body,
        body: body.body as BodyInput | undefined,
      });
      const view = await loadCommentContext(app.db, app.urls, viewerOf(request, updated), [updated.comment]);
      return presentComment(view, updated.thread, updated.comment);
    },
  );

  app.delete(
    comment,
    {
      config: write,
      schema: { operationId: id.deleteComment, tags, params: v.params.comment, response: { 204: NoContent } },
    },
    async (request, reply) => {
      await deleteComment(serviceContext(app, request), refOf(request), paramsOf(request).commentId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    replies,
    {
      config: read,
      schema: {
        operationId: id.listCommentReplies,
        tags,
        params: v.params.comment,
        querystring: ListRepliesQuery,
        response: { 200: PagedList(CommentReply) },
      },
    },
    async (request) => {
      const ctx = serviceContext(app, request);
      const open = await openThread(ctx, refOf(request), 'read', 'read it');
      const parent = await requireComment(ctx, open, paramsOf(request).commentId);
      const query = request.query as Static<typeof ListRepliesQuery>;
      const page = await listReplies(app.db, parent.id, query);
      const view = await loadCommentContext(app.db, app.urls, viewerOf(request, open), page.items, query.format);
      return { ...page, items: page.items.map((row) => presentReply(view, open.thread, parent.id, row)) };
    },
  );

  app.post(
    replies,
    {
      config: write,
      schema: {
        operationId: id.postCommentReply,
        tags,
        params: v.params.comment,
        body: PostReplyBody,
        response: { 201: CommentReply },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof PostReplyBody>;
      const posted = await postReply(serviceContext(app, request), refOf(request), paramsOf(request).commentId, {
        body: body.body as BodyInput,
      });
      const view = await loadCommentContext(app.db, app.urls, viewerOf(request, posted), [posted.reply]);
      reply.code(201).header('location', app.urls.api(replyPath(posted.thread, posted.comment.id, posted.reply.id)));
      return presentReply(view, posted.thread, posted.comment.id, posted.reply);
    },
  );

  app.get(
    oneReply,
    {
      config: read,
      schema: {
        operationId: id.getCommentReply,
        tags,
        params: v.params.reply,
        querystring: FormatQuery,
        response: { 200: CommentReply },
      },
    },
    async (request) => {
      const ctx = serviceContext(app, request);
      const open = await openThread(ctx, refOf(request), 'read', 'read it');
      const { commentId, commentReplyId } = paramsOf(request);
      const found = await requireReply(ctx, open, commentId, commentReplyId);
      const format = (request.query as Static<typeof FormatQuery>).format;
      const view = await loadCommentContext(app.db, app.urls, viewerOf(request, open), [found.reply], format);
      return presentReply(view, open.thread, found.comment.id, found.reply);
    },
  );

  app.put(
    oneReply,
    {
      config: write,
      schema: {
        operationId: id.updateCommentReply,
        tags,
        params: v.params.reply,
        body: UpdateReplyBody,
        response: { 200: CommentReply },
      },
    },
    async (request) => {
      const body = request.body as Static<typeof UpdateReplyBody>;
      const { commentId, commentReplyId } = paramsOf(request);
      const updated = await updateReply(serviceContext(app, request), refOf(request), commentId, commentReplyId, {
        ...body,
        body: body.body as BodyInput | undefined,
      });
      const view = await loadCommentContext(app.db, app.urls, viewerOf(request, updated), [updated.reply]);
      return presentReply(view, updated.thread, updated.comment.id, updated.reply);
    },
  );

  app.delete(
    oneReply,
    {
      config: write,
      schema: {
        operationId: id.deleteCommentReply,
        tags,
        params: v.params.reply,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { commentId, commentReplyId } = paramsOf(request);
      await deleteReply(serviceContext(app, request), refOf(request), commentId, commentReplyId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    v.paths.commenters,
    {
      config: read,
      schema: {
        operationId: id.listCommenters,
        tags,
        params: v.params.thread,
        querystring: ListCommentersQuery,
        response: { 200: PagedList(Member) },
      },
    },
    async (request) => {
      const open = await openThread(serviceContext(app, request), refOf(request), 'read', 'read it');
      const query = request.query as Static<typeof ListCommentersQuery>;
      const page = await listCommenters(app.db, open.space.organization_id, open.thread, query);
      const organizationId = open.space.organization_id;
      const counts = await memberCounts(
        app.db,
        organizationId,
        page.items.map((r) => r.user_id),
      );
      return { ...page, items: presentMembers(page.items, counts, app.urls) };
    },
  );
}
