import { Type } from 'typebox';
import { RoleOrGuest, RoleSchema, UserSchema } from '../../../lib/schemas.js';
import { Team } from '../../teams/schemas.js';

export const UserSitePermission = Type.Object({ permission: RoleSchema, user: UserSchema });
export const TeamSitePermission = Type.Object({ permission: RoleSchema, team: Team });

const Ids = Type.Array(Type.String({ minLength: 1 }), { maxItems: 1000 });
/** `role` null takes the named users' and teams' grants away (as `inviteToSpace` does). */
export const InviteToSiteBody = Type.Object(
  { role: RoleOrGuest, users: Type.Optional(Ids), teams: Type.Optional(Ids) },
  { additionalProperties: false },
);
export const UpdateSitePermissionBody = Type.Object(
  { role: Type.Optional(RoleSchema) },
  { additionalProperties: false },
);

const Id = Type.String({ minLength: 1 });
export const SiteUserParams = Type.Object({ organizationId: Id, siteId: Id, userId: Id });
export const SiteTeamParams = Type.Object({ organizationId: Id, siteId: Id, teamId: Id });
