/**
 * Set-up shared by the contract tests of spaces, collections and their permissions
 * (`test/contract/spaces*.contract.test.ts`): the operations of these areas and which file checks
 * that it validated which, setup-only spaces and collections, and the permission operations, the same
 * for spaces and collections. Each test file calls `useContractServer()` (`test/contract/server.ts`)
 * first; these helpers make organizations and members on that server (`newOrg()`, `newMember()`).
 */
import { type GitBookAPI, official } from '../contract/official.js';
import { type MemberRole, newMember, newOrg, type Org, unique } from '../contract/server.js';
import { findOperation } from '../contract/validate.js';

/**
 * The operations of these areas that spaces.contract.test.ts validates and checks that it did:
 * spaces and collections themselves.
 */
export const SPACE_AND_COLLECTION_OPERATIONS = [
  'createSpace',
  'listSpacesInOrganizationById',
  'getSpaceById',
  'updateSpaceById',
  'deleteSpaceById',
  'restoreSpace',
  'moveSpace',
  'createCollection',
  'listCollectionsInOrganizationById',
  'getCollectionById',
  'updateCollectionById',
  'deleteCollectionById',
  'listSpacesInCollectionById',
  'moveCollection',
  'transferCollection',
] as const;

/**
 * The operations of these areas that spaces-permissions.contract.test.ts validates and checks that it
 * did: the permissions of collections and spaces, and the member's spaces.
 */
export const PERMISSION_OPERATIONS = [
  'inviteToCollection',
  'listTeamPermissionsInCollection',
  'updateTeamPermissionInCollection',
  'removeTeamFromCollection',
  'listUserPermissionsInCollection',
  'updateUserPermissionInCollection',
  'removeUserFromCollection',
  'listPermissionsAggregateInCollection',
  'inviteToSpace',
  'listUserPermissionsInSpace',
  'listTeamPermissionsInSpace',
  'listPermissionsAggregateInSpace',
  'updateUserPermissionInSpace',
  'removeUserFromSpace',
  'updateTeamPermissionInSpace',
  'removeTeamFromSpace',
  'listSpacesForOrganizationMember',
] as const;

/**
 * Every operation of these areas: the two parts joined, so that each operation is in a part, checked
 * by that part's file (spaces.contract.test.ts also checks that no operation is in both parts).
 */
export const SPACE_OPERATIONS = [...SPACE_AND_COLLECTION_OPERATIONS, ...PERMISSION_OPERATIONS] as const;

/** The statuses the official document gives `operationId`. */
export function documentedStatuses(operationId: string): number[] {
  return Object.keys(findOperation(operationId).operation.responses ?? {}).map(Number);
}

/** Creates a space as the org admin (not a checked call: setup only). */
export async function space(org: Org, body: { title?: string; parent?: string } = {}) {
  return (await org.api.orgs.createSpace(org.id, { title: body.title ?? `Space ${unique()}`, ...body })).data;
}

/** Creates a collection as the org admin (not a checked call: setup only). */
export async function collection(org: Org, body: { title?: string; parent?: string } = {}) {
  return (await org.api.orgs.createCollection(org.id, { title: body.title ?? `Collection ${unique()}`, ...body })).data;
}

/** The permission operations, the same for spaces and collections. */
export interface PermissionKind {
  name: 'Space' | 'Collection';
  create(org: Org): Promise<string>;
  invite(api: GitBookAPI, id: string, body: Parameters<GitBookAPI['spaces']['inviteToSpace']>[1]): Promise<any>;
  listUsers(api: GitBookAPI, id: string, query?: { page?: string; limit?: number }): Promise<any>;
  listTeams(api: GitBookAPI, id: string, query?: { page?: string; limit?: number }): Promise<any>;
  aggregate(api: GitBookAPI, id: string, query?: { page?: string; limit?: number; role?: MemberRole }): Promise<any>;
  updateUser(api: GitBookAPI, id: string, userId: string, body: { role?: MemberRole | null }): Promise<any>;
  updateTeam(api: GitBookAPI, id: string, teamId: string, body: { role?: MemberRole | null }): Promise<any>;
  removeUser(api: GitBookAPI, id: string, userId: string): Promise<any>;
  removeTeam(api: GitBookAPI, id: string, teamId: string): Promise<any>;
}

export const KINDS: PermissionKind[] = [
  {
    name: 'Space',
    create: async (org) => (await space(org)).id,
    invite: (api, id, body) => api.spaces.inviteToSpace(id, body),
    listUsers: (api, id, query) => api.spaces.listUserPermissionsInSpace(id, query),
    listTeams: (api, id, query) => api.spaces.listTeamPermissionsInSpace(id, query),
    aggregate: (api, id, query) => api.spaces.listPermissionsAggregateInSpace(id, query),
    updateUser: (api, id, userId, body) => api.spaces.updateUserPermissionInSpace(id, userId, body),
    updateTeam: (api, id, teamId, body) => api.spaces.updateTeamPermissionInSpace(id, teamId, body),
    removeUser: (api, id, userId) => api.spaces.removeUserFromSpace(id, userId),
    removeTeam: (api, id, teamId) => api.spaces.removeTeamFromSpace(id, teamId),
  },
  {
    name: 'Collection',
    create: async (org) => (await collection(org)).id,
    invite: (api, id, body) => api.collections.inviteToCollection(id, body),
    listUsers: (api, id, query) => api.collections.listUserPermissionsInCollection(id, query),
    listTeams: (api, id, query) => api.collections.listTeamPermissionsInCollection(id, query),
    aggregate: (api, id, query) => api.collections.listPermissionsAggregateInCollection(id, query),
    updateUser: (api, id, userId, body) => api.collections.updateUserPermissionInCollection(id, userId, body),
    updateTeam: (api, id, teamId, body) => api.collections.updateTeamPermissionInCollection(id, teamId, body),
    removeUser: (api, id, userId) => api.collections.removeUserFromCollection(id, userId),
    removeTeam: (api, id, teamId) => api.collections.removeTeamFromCollection(id, teamId),
  },
];

/** The operationIds of one kind: `inviteToSpace`, `listUserPermissionsInSpace`, ... */
export function opsOf(kind: PermissionKind) {
  const n = kind.name;
  return {
    invite: `inviteTo${n}`,
    listUsers: `listUserPermissionsIn${n}`,
    listTeams: `listTeamPermissionsIn${n}`,
    aggregate: `listPermissionsAggregateIn${n}`,
    updateUser: `updateUserPermissionIn${n}`,
    updateTeam: `updateTeamPermissionIn${n}`,
    removeUser: `removeUserFrom${n}`,
    removeTeam: `removeTeamFrom${n}`,
  };
}

/** An organization with a space or collection, a guest, a reader and a team (of a guest). */
export async function permissionFixture(kind: PermissionKind) {
  const org = await newOrg();
  const id = await kind.create(org);
  const guest = await newMember(org.id, null);
  const reader = await newMember(org.id, official.MemberRole.Read);
  const teamMember = await newMember(org.id, null);
  const team = (
    await org.api.orgs.createOrganizationTeam(org.id, { title: `Team ${unique()}`, members: [teamMember.user.id] })
  ).data;
  return { org, id, guest, reader, teamMember, team };
}
