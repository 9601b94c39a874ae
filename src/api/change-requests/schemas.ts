import { Type } from 'typebox';
import { PageQuery } from '../../lib/paging.js';
import { StringEnum, Timestamp, InlineUserSchema as UserSchema } from '../../lib/schemas.js';

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];

/** Most changes one batch may carry (the official document's limit). */
export const MAX_BATCH_CHANGES = 50;

export const Subject = Type.String({ maxLength: 100, description: 'Subject of the change request' });

export const ChangeRequest = Type.Object({
  object: Type.Literal('change-request'),
  id: Type.String(),
  number: Type.Number(),
  status: StringEnum(CHANGE_REQUEST_STATUSES),
  subject: Type.String(),
  createdBy: UserSchema,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  mergedBy: Type.Optional(UserSchema),
  mergedAt: Type.Optional(Timestamp),
  space: Type.String(),
  revision: Type.String(),
  revisionInitial: Type.String(),
  revisionMergedAncestor: Type.Optional(Type.String()),
  revisionMerged: Type.Optional(Type.String()),
  comments: Type.Number(),
  outdated: Type.Boolean(),
  urls: Type.Object({ app: Type.String(), location: Type.String() }),
});

export const SpaceParams = Type.Object({ spaceId: Type.String({ minLength: 1 }) });
export const ChangeRequestParams = Type.Object({
  spaceId: Type.String({ minLength: 1 }),
  changeRequestId: Type.String({ minLength: 1, description: 'The change request id or its number in the space' }),
});
export const ReviewerParams = Type.Object({
  spaceId: Type.String({ minLength: 1 }),
  changeRequestId: Type.String({ minLength: 1 }),
  userId: Type.String({ minLength: 1 }),
});

export const CreateChangeRequestBody = Type.Object(
  {
    subject: Type.Optional(Subject),
  },
  { additionalProperties: false },
);

export const UpdateChangeRequestBody = Type.Object(
  {
    subject: Type.Optional(Subject),
    status: Type.Optional(StringEnum(['draft', 'open', 'archived'] as const)),
  },
  { additionalProperties: false },
);

export const ListChangeRequestsQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(StringEnum(CHANGE_REQUEST_STATUSES, { default: 'open' })),
  creator: Type.Optional(Type.String({ minLength: 1 })),
  requestedReviewer: Type.Optional(Type.String({ minLength: 1 })),
  orderBy: Type.Optional(StringEnum(['updatedAt', 'createdAt'] as const)),
});

const Filter = (description: string) => Type.Optional(Type.String({ minLength: 1, description }));

export const ListOrgChangeRequestsQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(
    Type.Array(StringEnum(CHANGE_REQUEST_STATUSES), {
      default: ['open'],
      description: 'Only change requests of these statuses (repeat the parameter for several)',
    }),
  ),
  creator: Filter('Only change requests created by this user'),
  contributor: Filter('Only change requests this user created, edited or commented in'),
  requestedReviewer: Filter('Only change requests with a review requested from this user'),
  site: Filter('Only change requests of the spaces this site publishes'),
  space: Filter('Only change requests of this space'),
  topic: Filter('Site topics do not exist in Bindery: given, no change request matches'),
  styleguideRun: Filter('Style guide runs do not exist in Bindery: given, no change request matches'),
  finding: Type.Optional(StringEnum(['none', 'all'] as const, { description: 'Accepted; Bindery has no triage' })),
  orderBy: Type.Optional(StringEnum(['updatedAt', 'createdAt'] as const, { default: 'updatedAt' })),
});

export const UpdateResult = Type.Object({
  revision: Type.String({ description: 'ID of the resulting revision' }),
  result: StringEnum(['update', 'conflicts'] as const),
});

export const MergeResult = Type.Object({
  revision: Type.String({ description: 'The live revision the merge produced' }),
  result: StringEnum(['merge', 'conflicts'] as const),
});

export const RequestedReviewer = Type.Object({
  object: Type.Literal('change-request-requested-reviewer'),
  revision: Type.String(),
  requestedBy: UserSchema,
  createdAt: Timestamp,
  kind: Type.Literal('user'),
  user: UserSchema,
});

export const RequestReviewersBody = Type.Object(
  {
    users: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 100, uniqueItems: true }),
    subject: Type.Optional(Subject),
  },
  { additionalProperties: false },
);

export const ListReviewersQuery = Type.Object(PageQuery);
