import { Type } from 'typebox';
import { Nullable, RoleSchema, StringEnum, Timestamp, Url } from '../../lib/schemas.js';
import { GitSyncState } from '../git/schemas.js';
import { MergeRules } from '../organizations/schemas.js';

export const VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export const EDIT_MODES = ['live', 'locked'] as const;

export const SpaceTitle = Type.String({ maxLength: 50 });
export const Emoji = Type.String({ maxLength: 50 });
/** A role, `inherit`, or null (only explicit grants). */
export const DefaultLevel = Type.Union([RoleSchema, Type.Literal('inherit'), Type.Null()]);

/** `{type: inherit}` (the organization's rules) or the organization-style rules of its own. */
export const SpaceMergeRules = Type.Union([
  Type.Object({ type: Type.Literal('inherit') }, { additionalProperties: false }),
  MergeRules,
]);

export const SpaceFlags = Type.Object({
  view: Type.Boolean(),
  access: Type.Boolean(),
  admin: Type.Boolean(),
  viewInviteLinks: Type.Boolean(),
  edit: Type.Boolean(),
  triggerGitSync: Type.Boolean(),
  comment: Type.Boolean(),
  merge: Type.Boolean(),
  review: Type.Boolean(),
  installIntegration: Type.Boolean(),
});

export const Space = Type.Object(
  {
    object: Type.Literal('space'),
    id: Type.String(),
    title: Type.String(),
    emoji: Type.String(),
    visibility: StringEnum(VISIBILITIES),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: Type.Optional(Timestamp),
    editMode: StringEnum(EDIT_MODES),
    mergeRules: SpaceMergeRules,
    urls: Type.Object({
      location: Type.String(),
      app: Type.String(),
      published: Type.Optional(Type.String()),
      public: Type.Optional(Type.String()),
      icon: Type.Optional(Type.String()),
    }),
    organization: Type.String(),
    parent: Type.Optional(Type.String()),
    language: Type.Optional(Type.String()),
    revision: Type.String(),
    defaultLevel: DefaultLevel,
    comments: Type.Number(),
    changeRequests: Type.Number(),
    changeRequestsOpen: Type.Number(),
    changeRequestsDraft: Type.Number(),
    permissions: SpaceFlags,
    /** The Git Sync connection and its last operation, once the space was imported or exported. */
    gitSync: Type.Optional(GitSyncState),
  },
  { $id: 'Space' },
);

export const SpaceParams = Type.Object({ spaceId: Type.String({ minLength: 1 }) });

export const CreateSpaceBody = Type.Object(
  {
    title: Type.Optional(SpaceTitle),
    emoji: Type.Optional(Emoji),
    visibility: Type.Optional(StringEnum(VISIBILITIES)),
    parent: Type.Optional(Type.String({ minLength: 1 })),
    editMode: Type.Optional(StringEnum(EDIT_MODES)),
    language: Type.Optional(Type.String({ maxLength: 16 })),
    /** Accepted for compatibility with the official client: every new space starts empty. */
    empty: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UpdateSpaceBody = Type.Object(
  {
    title: Type.Optional(SpaceTitle),
    emoji: Type.Optional(Nullable(Emoji)),
    icon: Type.Optional(Nullable(Url)),
    visibility: Type.Optional(StringEnum(VISIBILITIES)),
    editMode: Type.Optional(StringEnum(EDIT_MODES)),
    defaultLevel: Type.Optional(DefaultLevel),
    language: Type.Optional(Nullable(Type.String({ maxLength: 16 }))),
    mergeRules: Type.Optional(SpaceMergeRules),
  },
  { additionalProperties: false },
);

const Pointer = Type.Union([
  Type.Object({ type: Type.Literal('space'), space: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  Type.Object(
    { type: Type.Literal('collection'), collection: Type.String({ minLength: 1 }) },
    { additionalProperties: false },
  ),
]);
export const Position = Type.Object(
  { before: Type.Optional(Pointer), after: Type.Optional(Pointer) },
  { additionalProperties: false },
);
export const MoveBody = Type.Object(
  { parent: Type.Optional(Nullable(Type.String({ minLength: 1 }))), position: Type.Optional(Position) },
  { additionalProperties: false, minProperties: 1 },
);
