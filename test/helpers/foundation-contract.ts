/**
 * Set-up shared by the contract tests of the foundation areas (user, organizations, members, teams;
 * `test/contract/foundation*.contract.test.ts`): the operations of these areas and which file checks
 * that it validated which. The organizations and members the tests start from are made by
 * `newOrg()` and `newMember()` of `test/contract/server.ts`, on the server `useContractServer()` starts.
 */

/**
 * The operations of these areas that foundation.contract.test.ts validates and checks that it did:
 * the authenticated user and organizations.
 */
export const USER_AND_ORGANIZATION_OPERATIONS = [
  'getAuthenticatedUser',
  'listOrganizationsForAuthenticatedUser',
  'createOrganization',
  'getOrganizationById',
  'updateOrganizationById',
  'updateOrganizationMemberLastSeenAt',
] as const;

/**
 * The operations of these areas that foundation-members.contract.test.ts validates and checks that it
 * did: the members and teams of an organization.
 */
export const MEMBER_AND_TEAM_OPERATIONS = [
  'listMembersInOrganizationById',
  'getMemberInOrganizationById',
  'updateMemberInOrganizationById',
  'setUserAsSSOMemberForOrganization',
  'listTeamsForOrganizationMember',
  'removeMemberFromOrganizationById',
  'inviteUsersToOrganization',
  'listTeamsInOrganizationById',
  'createOrganizationTeam',
  'getTeamInOrganizationById',
  'updateTeamInOrganizationById',
  'listTeamMembersInOrganizationById',
  'updateMembersInOrganizationTeam',
  'addMemberToOrganizationTeamById',
  'deleteMemberFromOrganizationTeamById',
  'removeTeamFromOrganizationById',
] as const;

/**
 * Every operation of these areas: the two parts joined, so that each operation is in a part, checked
 * by that part's file (foundation.contract.test.ts also checks that no operation is in both parts).
 */
export const FOUNDATION_OPERATIONS = [...USER_AND_ORGANIZATION_OPERATIONS, ...MEMBER_AND_TEAM_OPERATIONS] as const;
