import { Type } from 'typebox';
import { Nullable, Params, RoleOrGuest, Timestamp } from '../../lib/schemas.js';
import { Collection } from '../collections/schemas.js';
import { Space } from '../spaces/schemas.js';

/** The invite's id is its secret: long, random, URL-safe (`newId(32)`); the official `EntityId` pattern. */
export const InviteId = Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-zA-Z0-9_-]+$' });

export const OrgParams = Type.Object({ organizationId: Params.organizationId });
export const InviteParams = Type.Object({ organizationId: Params.organizationId, inviteId: InviteId });

/** Bindery's additions to the official invite objects: when the link stops working, and how often it was used. */
const Limits = {
  expiresAt: Type.Optional(Nullable(Timestamp)),
  maxUses: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100_000 }))),
};

/**
 * `CreateOrganizationInvite`: the official document's `{role}`, `{level, space}` or `{level,
 * collection}`, checked in the service (one object here so that a wrong mix is a 400 naming it).
 */
export const CreateInviteBody = Type.Object(
  {
    role: Type.Optional(RoleOrGuest),
    level: Type.Optional(RoleOrGuest),
    space: Type.Optional(Type.String({ minLength: 1 })),
    collection: Type.Optional(Type.String({ minLength: 1 })),
    ...Limits,
  },
  { additionalProperties: false },
);

/** `{role}` or `{level}` (the official oneOf), plus Bindery's limits. */
export const UpdateInviteBody = Type.Object(
  { role: Type.Optional(RoleOrGuest), level: Type.Optional(RoleOrGuest), ...Limits },
  { additionalProperties: false },
);

/** What every invite link shows: the official fields but the target, with Bindery's additions. */
const InviteLinkCommon = {
  object: Type.Literal('invite'),
  id: Type.String(),
  redundant: Type.Boolean(),
  createdAt: Timestamp,
  expiresAt: Type.Optional(Timestamp),
  maxUses: Type.Optional(Type.Number()),
  uses: Type.Number(),
  urls: Type.Object({ app: Type.String() }),
};

/** The official `InviteLinkToOrganization`, with Bindery's additions. */
export const InviteLinkToOrganization = Type.Object(
  { ...InviteLinkCommon, role: RoleOrGuest },
  { $id: 'InviteLinkToOrganization' },
);

/**
 * The official list answers only `InviteLinkToOrganization`s: there, a link to a space or a
 * collection also shows `role: null`, the organization role it gives (guest).
 */
const ListedRole = { role: Type.Optional(Type.Null()) };

/** The official `InviteLinkToSpace`: the level granted on `space`. */
export const InviteLinkToSpace = Type.Object(
  { ...InviteLinkCommon, level: RoleOrGuest, space: Space, ...ListedRole },
  { $id: 'InviteLinkToSpace' },
);

/** The official `InviteLinkToCollection`: the level granted on `collection`. */
export const InviteLinkToCollection = Type.Object(
  { ...InviteLinkCommon, level: RoleOrGuest, collection: Collection, ...ListedRole },
  { $id: 'InviteLinkToCollection' },
);

/**
 * The official `OrganizationInviteLink`. The links to a target come first: answers are written by
 * the first variant they match, and a listed one (with `role: null`) matches the organization's too.
 */
export const InviteLink = Type.Union([InviteLinkToSpace, InviteLinkToCollection, InviteLinkToOrganization]);

export const JoinedResponse = Type.Object({}, { additionalProperties: false });
