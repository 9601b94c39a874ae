import { Type } from 'typebox';
import { Nullable, Params, RoleOrGuest, Timestamp } from '../../lib/schemas.js';

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

/** The official `InviteLinkToOrganization`, with Bindery's additions. */
export const InviteLink = Type.Object(
  {
    object: Type.Literal('invite'),
    id: Type.String(),
    role: RoleOrGuest,
    redundant: Type.Boolean(),
    createdAt: Timestamp,
    expiresAt: Type.Optional(Timestamp),
    maxUses: Type.Optional(Type.Number()),
    uses: Type.Number(),
    urls: Type.Object({ app: Type.String() }),
  },
  { $id: 'InviteLinkToOrganization' },
);

export const JoinedResponse = Type.Object({}, { additionalProperties: false });
