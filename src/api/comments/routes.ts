/**
 * Comments and replies, the same eleven operations on a space (`…InSpace`) and in a change request
 * (`…InChangeRequest`). Posting answers 201 with Location (the official document lists 200; the body
 * is the same Comment), deleting 204. Every endpoint is declared on its own, so that its path and
 * operationId are found in the code as written; the two variants share their handlers.
 */
import type { App } from '../../http/app.js';
import { PagedList } from '../../lib/paging.js';
import { NoContent } from '../../lib/schemas.js';
import { Member } from '../members/schemas.js';
import { commentHandlers } from './handlers.js';
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

const read = { scope: 'space:read' } as const;
const write = { scope: 'space:write' } as const;
const spaceTags = ['space-comments'];
const changeRequestTags = ['change-request-comments'];

export default async function commentRoutes(app: App) {
  const handle = commentHandlers(app);
  app.get(
    '/spaces/:spaceId/comments',
    {
      config: read,
      schema: {
        operationId: 'listCommentsInSpace',
        tags: spaceTags,
        params: SpaceParams,
        querystring: ListCommentsQuery,
        response: { 200: PagedList(Comment) },
      },
    },
    handle.list,
  );
  app.post(
    '/spaces/:spaceId/comments',
    {
      config: write,
      schema: {
        operationId: 'postCommentInSpace',
        tags: spaceTags,
        params: SpaceParams,
        body: PostCommentBody,
        response: { 201: Comment },
      },
    },
    handle.post,
  );
  app.get(
    '/spaces/:spaceId/comments/:commentId',
    {
      config: read,
      schema: {
        operationId: 'getCommentInSpace',
        tags: spaceTags,
        params: SpaceCommentParams,
        querystring: FormatQuery,
        response: { 200: Comment },
      },
    },
    handle.get,
  );
  app.put(
    '/spaces/:spaceId/comments/:commentId',
    {
      config: write,
      schema: {
        operationId: 'updateCommentInSpace',
        tags: spaceTags,
        params: SpaceCommentParams,
        body: UpdateCommentBody,
        response: { 200: Comment },
      },
    },
    handle.update,
  );
  app.delete(
    '/spaces/:spaceId/comments/:commentId',
    {
      config: write,
      schema: {
        operationId: 'deleteCommentInSpace',
        tags: spaceTags,
        params: SpaceCommentParams,
        response: { 204: NoContent },
      },
    },
    handle.remove,
  );
  app.get(
    '/spaces/:spaceId/comments/:commentId/replies',
    {
      config: read,
      schema: {
        operationId: 'listCommentRepliesInSpace',
        tags: spaceTags,
        params: SpaceCommentParams,
        querystring: ListRepliesQuery,
        response: { 200: PagedList(CommentReply) },
      },
    },
    handle.listReplies,
  );
  app.post(
    '/spaces/:spaceId/comments/:commentId/replies',
    {
      config: write,
      schema: {
        operationId: 'postCommentReplyInSpace',
        tags: spaceTags,
        params: SpaceCommentParams,
        body: PostReplyBody,
        response: { 201: CommentReply },
      },
    },
    handle.postReply,
  );
  app.get(
    '/spaces/:spaceId/comments/:commentId/replies/:commentReplyId',
    {
      config: read,
      schema: {
        operationId: 'getCommentReplyInSpace',
        tags: spaceTags,
        params: SpaceReplyParams,
        querystring: FormatQuery,
        response: { 200: CommentReply },
      },
    },
    handle.getReply,
  );
  app.put(
    '/spaces/:spaceId/comments/:commentId/replies/:commentReplyId',
    {
      config: write,
      schema: {
        operationId: 'updateCommentReplyInSpace',
        tags: spaceTags,
        params: SpaceReplyParams,
        body: UpdateReplyBody,
        response: { 200: CommentReply },
      },
    },
    handle.updateReply,
  );
  app.delete(
    '/spaces/:spaceId/comments/:commentId/replies/:commentReplyId',
    {
      config: write,
      schema: {
        operationId: 'deleteCommentReplyInSpace',
        tags: spaceTags,
        params: SpaceReplyParams,
        response: { 204: NoContent },
      },
    },
    handle.removeReply,
  );
  app.get(
    '/spaces/:spaceId/commenters',
    {
      config: read,
      schema: {
        operationId: 'listCommentersInSpace',
        tags: spaceTags,
        params: SpaceParams,
        querystring: ListCommentersQuery,
        response: { 200: PagedList(Member) },
      },
    },
    handle.commenters,
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments',
    {
      config: read,
      schema: {
        operationId: 'listCommentsInChangeRequest',
        tags: changeRequestTags,
        params: ChangeRequestParams,
        querystring: ListCommentsQuery,
        response: { 200: PagedList(Comment) },
      },
    },
    handle.list,
  );
  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments',
    {
      config: write,
      schema: {
        operationId: 'postCommentInChangeRequest',
        tags: changeRequestTags,
        params: ChangeRequestParams,
        body: PostCommentBody,
        response: { 201: Comment },
      },
    },
    handle.post,
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId',
    {
      config: read,
      schema: {
        operationId: 'getCommentInChangeRequest',
        tags: changeRequestTags,
        params: ChangeRequestCommentParams,
        querystring: FormatQuery,
        response: { 200: Comment },
      },
    },
    handle.get,
  );
  app.put(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId',
    {
      config: write,
      schema: {
        operationId: 'updateCommentInChangeRequest',
        tags: changeRequestTags,
        params: ChangeRequestCommentParams,
        body: UpdateCommentBody,
        response: { 200: Comment },
      },
    },
    handle.update,
  );
  app.delete(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId',
    {
      config: write,
      schema: {
        operationId: 'deleteCommentInChangeRequest',
        tags: changeRequestTags,
        params: ChangeRequestCommentParams,
        response: { 204: NoContent },
      },
    },
    handle.remove,
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies',
    {
      config: read,
      schema: {
        operationId: 'listCommentRepliesInChangeRequest',
        tags: changeRequestTags,
        params: ChangeRequestCommentParams,
        querystring: ListRepliesQuery,
        response: { 200: PagedList(CommentReply) },
      },
    },
    handle.listReplies,
  );
  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies',
    {
      config: write,
      schema: {
        operationId: 'postCommentReplyInChangeRequest',
        tags: changeRequestTags,
        params: ChangeRequestCommentParams,
        body: PostReplyBody,
        response: { 201: CommentReply },
      },
    },
    handle.postReply,
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:commentReplyId',
    {
      config: read,
      schema: {
        operationId: 'getCommentReplyInChangeRequest',
        tags: changeRequestTags,
        params: ChangeRequestReplyParams,
        querystring: FormatQuery,
        response: { 200: CommentReply },
      },
    },
    handle.getReply,
  );
  app.put(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:commentReplyId',
    {
      config: write,
      schema: {
        operationId: 'updateCommentReplyInChangeRequest',
        tags: changeRequestTags,
        params: ChangeRequestReplyParams,
        body: UpdateReplyBody,
        response: { 200: CommentReply },
      },
    },
    handle.updateReply,
  );
  app.delete(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:commentReplyId',
    {
      config: write,
      schema: {
        operationId: 'deleteCommentReplyInChangeRequest',
        tags: changeRequestTags,
        params: ChangeRequestReplyParams,
        response: { 204: NoContent },
      },
    },
    handle.removeReply,
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/commenters',
    {
      config: read,
      schema: {
        operationId: 'listCommentersInChangeRequest',
        tags: changeRequestTags,
        params: ChangeRequestParams,
        querystring: ListCommentersQuery,
        response: { 200: PagedList(Member) },
      },
    },
    handle.commenters,
  );
}
