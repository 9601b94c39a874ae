import { Type } from 'typebox';
import { PageQuery } from '../../lib/paging.js';
import { Params, ROLES, RoleOrGuest, StringEnum, Timestamp, UserSchema } from '../../lib/schemas.js';

export const Member = Type.Object(
  {
    object: Type.Literal('member'),
    id: Type.String(),
    role: RoleOrGuest,
    user: UserSchema,
    disabled: Type.Boolean(),
    joinedAt: Timestamp,
    lastSeenAt: Type.Optional(Timestamp),
    sso: Type.Boolean(),
    spaces: Type.Number(),
    teams: Type.Number(),
    sites: Type.Number(),
  },
  { $id: 'Member' },
);

export const MemberParams = Type.Object({ organizationId: Params.organizationId, userId: Params.userId });

export const Order = StringEnum(['asc', 'desc'] as const, { default: 'desc' });

export const ListMembersQuery = Type.Object({
  ...PageQuery,
  order: Type.Optional(Order),
  role: Type.Optional(StringEnum([...ROLES, 'guest'] as const)),
  search: Type.Optional(Type.String({ maxLength: 256 })),
  sort: Type.Optional(StringEnum(['joinedAt', 'lastSeenAt', 'name'] as const, { default: 'joinedAt' })),
});

export const UpdateMemberBody = Type.Object({ role: Type.Optional(RoleOrGuest) }, { additionalProperties: false });

const Email = Type.String({ format: 'email', maxLength: 254 });
export const InviteBody = Type.Object(
  {
    emails: Type.Array(
      Type.Union([Email, Type.Object({ email: Email, role: RoleOrGuest }, { additionalProperties: false })]),
      { minItems: 1, maxItems: 500 },
    ),
    role: Type.Optional(RoleOrGuest),
    sso: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const InviteResponse = Type.Object({
  users: Type.Array(Type.String()),
  invited: Type.Number(),
  failedSSOEmails: Type.Optional(Type.Array(Type.String())),
});
