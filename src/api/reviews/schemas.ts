/** Schemas of change request reviews and contributors (the official shapes). */
import { Type } from 'typebox';
import { PageQuery } from '../../lib/paging.js';
import { InlineUserSchema, StringEnum, Timestamp } from '../../lib/schemas.js';
import { Comment, CommentBody } from '../comments/schemas.js';

export const REVIEW_STATUSES = ['approved', 'changes-requested'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const ChangeRequestParams = Type.Object({
  spaceId: Type.String({ minLength: 1 }),
  changeRequestId: Type.String({ minLength: 1, description: 'The change request id or its number in the space' }),
});
export const ReviewParams = Type.Object({
  ...ChangeRequestParams.properties,
  reviewId: Type.String({ minLength: 1, maxLength: 100 }),
});

const Format = Type.Optional(
  StringEnum(['document', 'markdown'] as const, { description: 'How comment bodies are returned (default document)' }),
);
export const ListReviewsQuery = Type.Object({
  ...PageQuery,
  format: Format,
  outdated: Type.Optional(Type.Boolean({ description: 'Only outdated reviews (true) or only current ones (false)' })),
});
export const GetReviewQuery = Type.Object({ format: Format });

export const SubmitReviewBody = Type.Object(
  {
    status: StringEnum(REVIEW_STATUSES),
    comment: Type.Optional(CommentBody),
  },
  { additionalProperties: false },
);

export const ChangeRequestReview = Type.Object({
  object: Type.Literal('change-request-review'),
  id: Type.String(),
  revision: Type.String({ description: 'The revision of the change request the review was made on' }),
  reviewer: InlineUserSchema,
  requestedBy: Type.Optional(InlineUserSchema),
  status: StringEnum(REVIEW_STATUSES),
  outdated: Type.Boolean({
    description:
      'The change request was edited since (its revision is another), or the reviewer reviewed again or was asked again',
  }),
  comment: Type.Optional(Comment),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  urls: Type.Object({ location: Type.String() }),
});

export const ChangeRequestContributor = Type.Object({
  updatedAt: Timestamp,
  count: Type.Integer(),
  user: InlineUserSchema,
  actionType: StringEnum(['edit', 'comment'] as const),
});

export const ContributorList = Type.Object({
  items: Type.Array(ChangeRequestContributor),
  count: Type.Number(),
});
