/** Schemas of comments and their replies, on a space or in a change request (the official shapes). */
import { Type } from 'typebox';
import { PageQuery } from '../../lib/paging.js';
import { StringEnum, Timestamp, InlineUserSchema as UserSchema } from '../../lib/schemas.js';
import { JsonDocumentSchema } from '../content/edit-schemas.js';

/** Longest Markdown body of a comment, in characters. */
export const MAX_COMMENT_MARKDOWN = 20_000;
/** Most top-level blocks of a JSON document body. */
export const MAX_COMMENT_BLOCKS = 500;
/** Most reactions added or removed by one update. */
export const MAX_REACTIONS_PER_UPDATE = 20;

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const SpaceParams = Type.Object({ spaceId: Id });
export const ChangeRequestParams = Type.Object({
  spaceId: Id,
  changeRequestId: Type.String({ minLength: 1, description: 'The change request id or its number in the space' }),
});
export const SpaceCommentParams = Type.Object({ spaceId: Id, commentId: Id });
export const ChangeRequestCommentParams = Type.Object({ ...ChangeRequestParams.properties, commentId: Id });
export const SpaceReplyParams = Type.Object({ spaceId: Id, commentId: Id, commentReplyId: Id });
export const ChangeRequestReplyParams = Type.Object({
  ...ChangeRequestParams.properties,
  commentId: Id,
  commentReplyId: Id,
});

/** The official `Document` a body is sent and returned as: Markdown, a JSON document, or empty. */
export const CommentBody = Type.Union([
  Type.Object({ markdown: Type.String({ maxLength: MAX_COMMENT_MARKDOWN }) }, { additionalProperties: false }),
  Type.Object(
    {
      document: Type.Object({
        ...JsonDocumentSchema.properties,
        nodes: Type.Array(JsonDocumentSchema.properties.nodes.items, { maxItems: MAX_COMMENT_BLOCKS }),
      }),
    },
    { additionalProperties: false },
  ),
  Type.Object({}, { additionalProperties: false }),
]);

const Format = Type.Optional(
  StringEnum(['document', 'markdown'] as const, { description: 'How bodies are returned (default document)' }),
);
export const FormatQuery = Type.Object({ format: Format });

export const ListCommentsQuery = Type.Object({
  ...PageQuery,
  order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'desc' })),
  status: Type.Optional(StringEnum(['all', 'open', 'resolved'] as const, { default: 'all' })),
  format: Format,
  targetPage: Type.Optional(Type.String({ minLength: 1, description: 'Only comments on this page' })),
  authors: Type.Optional(
    Type.Array(Type.String({ minLength: 1 }), { maxItems: 100, description: 'Only comments of these users' }),
  ),
});
export const ListRepliesQuery = Type.Object({ ...PageQuery, format: Format });
export const ListCommentersQuery = Type.Object({ ...PageQuery });

export const TableCellTarget = Type.Object({ record: Type.String(), definition: Type.String() });

export const PostCommentBody = Type.Object(
  {
    body: CommentBody,
    page: Type.Optional(Type.String({ minLength: 1, description: 'The page the comment is about' })),
    node: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The block of the page' })),
    /** Accepted as the official document allows; Bindery has no table cells to attach to. */
    tableCell: Type.Optional(TableCellTarget),
  },
  { additionalProperties: false },
);

const Reactions = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: MAX_REACTIONS_PER_UPDATE });

export const UpdateCommentBody = Type.Object(
  {
    resolved: Type.Optional(Type.Boolean()),
    body: Type.Optional(CommentBody),
    addedReactions: Type.Optional(Reactions),
    removedReactions: Type.Optional(Reactions),
  },
  { additionalProperties: false },
);
export const PostReplyBody = Type.Object({ body: CommentBody }, { additionalProperties: false });
export const UpdateReplyBody = Type.Object(
  {
    body: Type.Optional(CommentBody),
    addedReactions: Type.Optional(Reactions),
    removedReactions: Type.Optional(Reactions),
  },
  { additionalProperties: false },
);

const Reaction = Type.Object({
  emoji: Type.String(),
  count: Type.Number(),
  users: Type.Array(Type.Object({ user: UserSchema, reactedAt: Timestamp })),
});

const Permissions = Type.Object({
  view: Type.Boolean(),
  edit: Type.Boolean(),
  reply: Type.Boolean(),
  delete: Type.Boolean(),
});

const OutBody = Type.Union([
  Type.Object({ markdown: Type.String() }),
  Type.Object({
    document: Type.Object({ object: Type.Literal('document'), data: Type.Unknown(), nodes: Type.Unknown() }),
  }),
]);

export const Comment = Type.Object({
  object: Type.Literal('comment'),
  id: Type.String(),
  postedBy: UserSchema,
  postedAt: Timestamp,
  editedAt: Type.Optional(Timestamp),
  reactions: Type.Array(Reaction),
  replies: Type.Number(),
  repliers: Type.Array(Type.Object({ updatedAt: Timestamp, count: Type.Integer(), user: UserSchema })),
  body: OutBody,
  target: Type.Object({
    node: Type.Optional(Type.Object({ id: Type.String() })),
    changeRequest: Type.Optional(Type.String()),
    review: Type.Optional(Type.String()),
    page: Type.Optional(Type.Object({ id: Type.String() })),
    space: Type.String(),
    revision: Type.String(),
  }),
  urls: Type.Object({ location: Type.String() }),
  permissions: Permissions,
  status: StringEnum(['open', 'resolved'] as const),
  resolvedAt: Type.Optional(Timestamp),
  resolvedBy: Type.Optional(UserSchema),
});

export const CommentReply = Type.Object({
  object: Type.Literal('comment-reply'),
  id: Type.String(),
  postedBy: UserSchema,
  postedAt: Timestamp,
  editedAt: Type.Optional(Timestamp),
  reactions: Type.Array(Reaction),
  body: OutBody,
  urls: Type.Object({ location: Type.String() }),
  permissions: Permissions,
});
