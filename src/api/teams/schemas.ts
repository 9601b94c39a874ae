import { Type } from 'typebox';
import { PageQuery } from '../../lib/paging.js';
import { Params, TeamRoleSchema, Timestamp } from '../../lib/schemas.js';
import { Member } from '../members/schemas.js';

export const TeamTitle = Type.String({ minLength: 1, maxLength: 64 });

export const Team = Type.Object(
  {
    object: Type.Literal('team'),
    id: Type.String(),
    title: Type.String(),
    members: Type.Integer(),
    spaces: Type.Number(),
    createdAt: Timestamp,
    permissions: Type.Object({ admin: Type.Boolean(), view: Type.Boolean() }),
  },
  { $id: 'Team' },
);

export const TeamParams = Type.Object({ organizationId: Params.organizationId, teamId: Params.teamId });
export const TeamMemberParams = Type.Object({
  organizationId: Params.organizationId,
  teamId: Params.teamId,
  userId: Params.userId,
});

export const ListTeamsQuery = Type.Object({
  ...PageQuery,
  owner: Type.Optional(Type.String({ minLength: 1, description: 'Only teams this member can manage' })),
  title: Type.Optional(Type.String({ maxLength: 64, description: 'Case-insensitive "contains" filter' })),
});

export const CreateTeamBody = Type.Object(
  { title: TeamTitle, members: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 1000 })) },
  { additionalProperties: false },
);
export const UpdateTeamBody = Type.Object({ title: TeamTitle }, { additionalProperties: false });

const UserKeys = Type.Array(Type.String({ minLength: 1 }), { maxItems: 1000 });
export const UpdateTeamMembersBody = Type.Object(
  {
    add: Type.Optional(UserKeys),
    remove: Type.Optional(UserKeys),
    memberships: Type.Optional(
      Type.Record(Type.String(), Type.Object({ role: TeamRoleSchema }, { additionalProperties: false })),
    ),
  },
  { additionalProperties: false },
);
export const PutTeamMemberBody = Type.Object({ role: Type.Optional(TeamRoleSchema) }, { additionalProperties: false });

export const TeamMemberEntry = Type.Object({
  organization: Member,
  team: Type.Object({ role: TeamRoleSchema }),
  permissions: Type.Object({ view: Type.Boolean() }),
});

export const MemberTeamEntry = Type.Object({
  team: Team,
  member: Type.Object({ role: TeamRoleSchema }),
});

export const ListMemberTeamsQuery = Type.Object({
  ...PageQuery,
  title: Type.Optional(Type.String({ maxLength: 64 })),
});
