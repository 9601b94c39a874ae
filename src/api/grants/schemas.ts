import { Type } from 'typebox';
import { PageQuery } from '../../lib/paging.js';
import { ROLES, RoleOrGuest, RoleSchema, StringEnum, UserSchema } from '../../lib/schemas.js';
import { Team } from '../teams/schemas.js';

export const UserPermissionEntry = Type.Object({ permission: RoleSchema, user: UserSchema });
export const TeamPermissionEntry = Type.Object({ permission: RoleSchema, team: Team });

const Ids = Type.Array(Type.String({ minLength: 1 }), { maxItems: 1000 });
export const InviteBody = Type.Object(
  { role: RoleOrGuest, users: Type.Optional(Ids), teams: Type.Optional(Ids) },
  { additionalProperties: false },
);
export const UpdatePermissionBody = Type.Object({ role: Type.Optional(RoleOrGuest) }, { additionalProperties: false });
export const AggregateQuery = Type.Object({ ...PageQuery, role: Type.Optional(StringEnum(ROLES)) });

const Id = Type.String({ minLength: 1 });
export const SpaceParams = Type.Object({ spaceId: Id });
export const CollectionParams = Type.Object({ collectionId: Id });
export const SpaceUserParams = Type.Object({ spaceId: Id, userId: Id });
export const SpaceTeamParams = Type.Object({ spaceId: Id, teamId: Id });
export const CollectionUserParams = Type.Object({ collectionId: Id, userId: Id });
export const CollectionTeamParams = Type.Object({ collectionId: Id, teamId: Id });
