import type { Member } from '../members/types';

/** `Team` of `listTeamsInOrganizationById`; `permissions.admin`: the caller manages its members. */
export interface Team {
  object: 'team';
  id: string;
  title: string;
  members: number;
  spaces: number;
  createdAt: string;
  permissions: { admin: boolean; view: boolean };
}

export type TeamRole = 'owner' | 'member';

/** An entry of `listTeamMembersInOrganizationById`. */
export interface TeamMember {
  organization: Member;
  team: { role: TeamRole };
}
