/**
 * Contract test of spaces, collections and their permissions (and the member's spaces): every
 * operation is driven through the official `@gitbook/api` client against a listening server, every
 * request body is first checked against the official request schema, and every response body is
 * validated against the schema GitBook's own OpenAPI document gives that operation.
 *
 * Where the server departs from the official document (a body it allows that the server rejects, a
 * status it documents that the server does not answer), the failing assertion is kept in
 * `describe('server mismatches')` at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import { type GitBookAPI, official } from './official.js';
import { type ContractServer, startContractServer } from './server.js';
import {
  assertRequestConforms,
  expectApiError,
  expectConforms,
  expectOperationsCovered,
  findOperation,
} from './validate.js';

/** Every operation of these areas; the last test fails if one of them was never validated. */
const SPACE_OPERATIONS = [
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

let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer();
});
afterAll(async () => server?.close());

interface Org {
  id: string;
  admin: TestUser;
  /** The official client, authenticated as the organization's admin. */
  api: GitBookAPI;
}

/** A new organization administered by a new user, with an official client for that admin. */
async function newOrg(): Promise<Org> {
  const { id, admin } = await server.harness.org();
  return { id, admin, api: server.client(admin.token) };
}

/** A new member of `organizationId` with `role` (null: guest), with an official client. */
async function newMember(organizationId: string, role: MemberRole | null) {
  const member = await server.harness.member(organizationId, role);
  return { ...member, api: server.client(member.token) };
}

/** `body`, after checking that the official document allows it as the request body of `operationId`. */
function allowed<T>(operationId: string, body: T): T {
  assertRequestConforms(operationId, body);
  return body;
}

/** The statuses the official document gives `operationId`. */
function documentedStatuses(operationId: string): number[] {
  return Object.keys(findOperation(operationId).operation.responses ?? {}).map(Number);
}

/** The official `MemberRole` (a string enum of the client). */
type MemberRole = NonNullable<
  NonNullable<Parameters<GitBookAPI['spaces']['listPermissionsAggregateInSpace']>[1]>['role']
>;

const unique = () => Math.random().toString(36).slice(2, 10);

/** Creates a space as the org admin (not a checked call: setup only). */
async function space(org: Org, body: { title?: string; parent?: string } = {}) {
  return (await org.api.orgs.createSpace(org.id, { title: body.title ?? `Space ${unique()}`, ...body })).data;
}

/** Creates a collection as the org admin (not a checked call: setup only). */
async function collection(org: Org, body: { title?: string; parent?: string } = {}) {
  return (await org.api.orgs.createCollection(org.id, { title: body.title ?? `Collection ${unique()}`, ...body })).data;
}

describe('the official document', () => {
  it('has every operation of these areas', () => {
    for (const id of SPACE_OPERATIONS) expect(findOperation(id).operationId).toBe(id);
  });
});

describe('spaces', () => {
  it('createSpace: minimal, with every official field, and inside a collection', async () => {
    const org = await newOrg();
    const op = 'createSpace';
    const minimal = await expectConforms(op, org.api.orgs.createSpace(org.id, allowed(op, {})), 201);
    expect(minimal.data).toMatchObject({ object: 'space', organization: org.id, defaultLevel: 'inherit' });
    expect((minimal as unknown as Response).headers.get('location')).toBe(minimal.data.urls.location);

    const full = await expectConforms(
      op,
      org.api.orgs.createSpace(
        org.id,
        allowed(op, {
          title: 'Handbook',
          emoji: '1f4d8',
          language: official.TranslationLanguage.Fr,
          editMode: official.SpaceEditMode.Locked,
          empty: true as const,
        }),
      ),
      201,
    );
    expect(full.data).toMatchObject({ title: 'Handbook', emoji: '1f4d8', language: 'fr', editMode: 'locked' });
    expect(full.data.permissions.admin).toBe(true);

    const parent = await collection(org);
    const nested = await expectConforms(
      op,
      org.api.orgs.createSpace(org.id, allowed(op, { title: 'Nested', parent: parent.id })),
      201,
    );
    expect(nested.data.parent).toBe(parent.id);
  });

  it('listSpacesInOrganizationById, paged, as an admin and as a guest', async () => {
    const org = await newOrg();
    const created = [await space(org, { title: 'A' }), await space(org, { title: 'B' }), await space(org)];
    const op = 'listSpacesInOrganizationById';
    const all = await expectConforms(op, org.api.orgs.listSpacesInOrganizationById(org.id), 200);
    expect(all.data.items.map((s) => s.id)).toEqual(created.map((s) => s.id));
    expect(all.data.count).toBe(3);
    const first = await expectConforms(op, org.api.orgs.listSpacesInOrganizationById(org.id, { limit: 2 }), 200);
    expect(first.data.items).toHaveLength(2);
    expect(first.data.next?.page).toBeTruthy();
    const rest = await expectConforms(
      op,
      org.api.orgs.listSpacesInOrganizationById(org.id, { limit: 2, page: first.data.next?.page }),
      200,
    );
    expect(rest.data.items.map((s) => s.id)).toEqual([created[2]?.id]);
    expect(rest.data.next).toBeUndefined();

    // A guest sees only the space granted to them.
    const guest = await newMember(org.id, null);
    await org.api.spaces.inviteToSpace(created[1]?.id as string, {
      role: official.MemberRole.Read,
      users: [guest.user.id],
    });
    const asGuest = await expectConforms(op, guest.api.orgs.listSpacesInOrganizationById(org.id), 200);
    expect(asGuest.data.items.map((s) => s.id)).toEqual([created[1]?.id]);
    expect(asGuest.data.items[0]?.permissions).toMatchObject({ view: true, edit: false, admin: false });
  });

  it('getSpaceById, as an admin and as a reader', async () => {
    const org = await newOrg();
    const s = await space(org, { title: 'Visible' });
    const op = 'getSpaceById';
    const asAdmin = await expectConforms(op, org.api.spaces.getSpaceById(s.id), 200);
    expect(asAdmin.data).toMatchObject({ id: s.id, title: 'Visible', visibility: 'private' });
    expect(asAdmin.data.permissions.admin).toBe(true);
    const reader = await newMember(org.id, official.MemberRole.Read);
    const asReader = await expectConforms(op, reader.api.spaces.getSpaceById(s.id), 200);
    expect(asReader.data.permissions).toMatchObject({ view: true, admin: false, edit: false, comment: false });
  });

  it('updateSpaceById: title, emoji, editMode, defaultLevel, language, then clearing the emoji', async () => {
    const org = await newOrg();
    const s = await space(org);
    const op = 'updateSpaceById';
    const set = await expectConforms(
      op,
      org.api.spaces.updateSpaceById(
        s.id,
        allowed(op, {
          title: 'Renamed',
          emoji: '1f389',
          editMode: official.SpaceEditMode.Locked,
          defaultLevel: official.MemberRole.Comment,
          language: official.TranslationLanguage.De,
        }),
      ),
      200,
    );
    expect(set.data).toMatchObject({
      title: 'Renamed',
      emoji: '1f389',
      editMode: 'locked',
      defaultLevel: 'comment',
      language: 'de',
    });
    const cleared = await expectConforms(
      op,
      org.api.spaces.updateSpaceById(s.id, allowed(op, { emoji: null, defaultLevel: null })),
      200,
    );
    expect(cleared.data.emoji).toBe('');
    expect(cleared.data.defaultLevel).toBeNull();
    const inherit = await expectConforms(
      op,
      org.api.spaces.updateSpaceById(s.id, allowed(op, { defaultLevel: 'inherit' as const })),
      200,
    );
    expect(inherit.data.defaultLevel).toBe('inherit');
  });

  it('deleteSpaceById and restoreSpace', async () => {
    const org = await newOrg();
    const s = await space(org);
    const deleted = await expectConforms('deleteSpaceById', org.api.spaces.deleteSpaceById(s.id));
    expect([204, 205]).toContain(deleted.status);
    const listed = await expectConforms(
      'listSpacesInOrganizationById',
      org.api.orgs.listSpacesInOrganizationById(org.id),
      200,
    );
    expect(listed.data.items).toHaveLength(0);
    const asDeleted = await expectConforms('getSpaceById', org.api.spaces.getSpaceById(s.id), 200);
    expect(asDeleted.data.deletedAt).toEqual(expect.any(String));
    const restored = await expectConforms('restoreSpace', org.api.spaces.restoreSpace(s.id), 200);
    expect(restored.data.id).toBe(s.id);
    expect(restored.data.deletedAt).toBeUndefined();
    // Restoring a live space is harmless.
    await expectConforms('restoreSpace', org.api.spaces.restoreSpace(s.id), 200);
  });

  it('moveSpace: into a collection, among siblings, and back to the top level', async () => {
    const org = await newOrg();
    const target = await collection(org);
    const a = await space(org, { title: 'a', parent: target.id });
    const b = await space(org, { title: 'b', parent: target.id });
    const c = await space(org, { title: 'c' });
    const op = 'moveSpace';
    const order = async () =>
      (await org.api.collections.listSpacesInCollectionById(target.id)).data.items.map((s) => s.title);

    const into = await expectConforms(op, org.api.spaces.moveSpace(c.id, allowed(op, { parent: target.id })), 200);
    expect(into.data.parent).toBe(target.id);
    expect(await order()).toEqual(['a', 'b', 'c']);
    await expectConforms(
      op,
      org.api.spaces.moveSpace(c.id, allowed(op, { position: { before: { type: 'space' as const, space: a.id } } })),
      200,
    );
    expect(await order()).toEqual(['c', 'a', 'b']);
    await expectConforms(
      op,
      org.api.spaces.moveSpace(c.id, allowed(op, { position: { after: { type: 'space' as const, space: b.id } } })),
      200,
    );
    expect(await order()).toEqual(['a', 'b', 'c']);
    const out = await expectConforms(op, org.api.spaces.moveSpace(a.id, allowed(op, { parent: null })), 200);
    expect(out.data.parent).toBeUndefined();
    expect(await order()).toEqual(['b', 'c']);
  });
});

describe('collections', () => {
  it('createCollection, at the top level and nested', async () => {
    const org = await newOrg();
    const op = 'createCollection';
    const top = await expectConforms(op, org.api.orgs.createCollection(org.id, allowed(op, { title: 'Top' })), 201);
    expect(top.data).toMatchObject({ object: 'collection', title: 'Top', organization: org.id });
    expect(top.data.permissions).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });
    expect((top as unknown as Response).headers.get('location')).toBe(top.data.urls.location);
    const nested = await expectConforms(
      op,
      org.api.orgs.createCollection(org.id, allowed(op, { title: 'Nested', parent: top.data.id })),
      201,
    );
    expect(nested.data.parent).toBe(top.data.id);
    await expectConforms(op, org.api.orgs.createCollection(org.id, allowed(op, {})), 201);
  });

  it('listCollectionsInOrganizationById, nested or not, paged', async () => {
    const org = await newOrg();
    const top = await collection(org, { title: 'Top' });
    const child = await collection(org, { title: 'Child', parent: top.id });
    const other = await collection(org, { title: 'Other' });
    const op = 'listCollectionsInOrganizationById';
    const all = await expectConforms(op, org.api.orgs.listCollectionsInOrganizationById(org.id), 200);
    expect(new Set(all.data.items.map((c) => c.id))).toEqual(new Set([top.id, child.id, other.id]));
    const flat = await expectConforms(
      op,
      org.api.orgs.listCollectionsInOrganizationById(org.id, { nested: false }),
      200,
    );
    expect(new Set(flat.data.items.map((c) => c.id))).toEqual(new Set([top.id, other.id]));
    const first = await expectConforms(op, org.api.orgs.listCollectionsInOrganizationById(org.id, { limit: 2 }), 200);
    expect(first.data.items).toHaveLength(2);
    const rest = await expectConforms(
      op,
      org.api.orgs.listCollectionsInOrganizationById(org.id, { limit: 2, page: first.data.next?.page }),
      200,
    );
    expect([...first.data.items, ...rest.data.items].map((c) => c.id).sort()).toEqual(
      [top.id, child.id, other.id].sort(),
    );
  });

  it('getCollectionById and updateCollectionById', async () => {
    const org = await newOrg();
    const c = await collection(org, { title: 'Before' });
    const got = await expectConforms('getCollectionById', org.api.collections.getCollectionById(c.id), 200);
    expect(got.data).toMatchObject({ id: c.id, title: 'Before', defaultLevel: 'inherit' });
    const op = 'updateCollectionById';
    const updated = await expectConforms(
      op,
      org.api.collections.updateCollectionById(
        c.id,
        allowed(op, { title: 'After', description: 'What it holds', defaultLevel: official.MemberRole.Edit }),
      ),
      200,
    );
    expect(updated.data).toMatchObject({ title: 'After', description: 'What it holds', defaultLevel: 'edit' });
    const none = await expectConforms(
      op,
      org.api.collections.updateCollectionById(c.id, allowed(op, { defaultLevel: null })),
      200,
    );
    expect(none.data.defaultLevel).toBeNull();
    const reader = await newMember(org.id, official.MemberRole.Read);
    await org.api.collections.updateCollectionById(c.id, { defaultLevel: 'inherit' });
    const asReader = await expectConforms('getCollectionById', reader.api.collections.getCollectionById(c.id), 200);
    expect(asReader.data.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
  });

  it('listSpacesInCollectionById, paged', async () => {
    const org = await newOrg();
    const c = await collection(org);
    const inside = [await space(org, { parent: c.id }), await space(org, { parent: c.id })];
    await space(org);
    const op = 'listSpacesInCollectionById';
    const all = await expectConforms(op, org.api.collections.listSpacesInCollectionById(c.id), 200);
    expect(all.data.items.map((s) => s.id)).toEqual(inside.map((s) => s.id));
    const first = await expectConforms(op, org.api.collections.listSpacesInCollectionById(c.id, { limit: 1 }), 200);
    expect(first.data.next?.page).toBeTruthy();
    const second = await expectConforms(
      op,
      org.api.collections.listSpacesInCollectionById(c.id, { limit: 1, page: first.data.next?.page }),
      200,
    );
    expect(second.data.items.map((s) => s.id)).toEqual([inside[1]?.id]);
  });

  it('moveCollection: under another collection, among siblings, and back to the top level', async () => {
    const org = await newOrg();
    const a = await collection(org, { title: 'a' });
    const b = await collection(org, { title: 'b' });
    const moving = await collection(org, { title: 'moving' });
    const op = 'moveCollection';
    const under = await expectConforms(
      op,
      org.api.collections.moveCollection(moving.id, allowed(op, { parent: a.id })),
      200,
    );
    expect(under.data.parent).toBe(a.id);
    const top = await expectConforms(
      op,
      org.api.collections.moveCollection(
        moving.id,
        allowed(op, { parent: null, position: { before: { type: 'collection' as const, collection: b.id } } }),
      ),
      200,
    );
    expect(top.data.parent).toBeUndefined();
    const flat = await org.api.orgs.listCollectionsInOrganizationById(org.id, { nested: false });
    expect(flat.data.items.map((c) => c.title)).toEqual(['a', 'moving', 'b']);
    // A collection cannot move under itself (documented 400).
    await expectApiError(op, org.api.collections.moveCollection(a.id, allowed(op, { parent: a.id })), 400);
  });

  it('transferCollection to another organization the caller administers', async () => {
    const org = await newOrg();
    const c = await collection(org);
    const inside = await space(org, { parent: c.id });
    const target = await org.api.orgs.createOrganization({ title: `Target ${unique()}` });
    const op = 'transferCollection';
    const moved = await expectConforms(
      op,
      org.api.collections.transferCollection(c.id, allowed(op, { organization: target.data.id })),
      200,
    );
    expect(moved.data.organization).toBe(target.data.id);
    const spaceNow = await expectConforms('getSpaceById', org.api.spaces.getSpaceById(inside.id), 200);
    expect(spaceNow.data.organization).toBe(target.data.id);
    // Into an organization the caller is not a member of: 404 (documented).
    const elsewhere = await newOrg();
    await expectApiError(
      op,
      org.api.collections.transferCollection(c.id, allowed(op, { organization: elsewhere.id })),
      404,
    );
  });

  it('deleteCollectionById', async () => {
    const org = await newOrg();
    const c = await collection(org);
    const inside = await space(org, { parent: c.id });
    const res = await expectConforms('deleteCollectionById', org.api.collections.deleteCollectionById(c.id));
    expect([204, 205]).toContain(res.status);
    await expectApiError('getCollectionById', org.api.collections.getCollectionById(c.id), 404);
    const listed = await expectConforms(
      'listSpacesInOrganizationById',
      org.api.orgs.listSpacesInOrganizationById(org.id),
      200,
    );
    expect(listed.data.items.map((s) => s.id)).not.toContain(inside.id);
  });
});

/** The permission operations, the same for spaces and collections. */
interface PermissionKind {
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

const KINDS: PermissionKind[] = [
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
function opsOf(kind: PermissionKind) {
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
async function permissionFixture(kind: PermissionKind) {
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

describe.each(KINDS)('permissions in a $name', (kind) => {
  const ops = opsOf(kind);

  it(`${ops.invite}, ${ops.listUsers}, ${ops.listTeams}`, async () => {
    const { org, id, guest, reader, team } = await permissionFixture(kind);
    await expectConforms(
      ops.invite,
      kind.invite(org.api, id, allowed(ops.invite, { role: official.MemberRole.Edit, users: [guest.user.id] })),
      204,
    );
    await expectConforms(
      ops.invite,
      kind.invite(
        org.api,
        id,
        allowed(ops.invite, { role: official.MemberRole.Comment, users: [reader.user.id], teams: [team.id] }),
      ),
      204,
    );

    const users = await expectConforms(ops.listUsers, kind.listUsers(org.api, id), 200);
    const byUser = Object.fromEntries(users.data.items.map((e: any) => [e.user.id, e.permission]));
    expect(byUser).toEqual({ [guest.user.id]: 'edit', [reader.user.id]: 'comment' });
    const page = await expectConforms(ops.listUsers, kind.listUsers(org.api, id, { limit: 1 }), 200);
    expect(page.data.items).toHaveLength(1);
    expect(page.data.next?.page).toBeTruthy();
    const next = await expectConforms(
      ops.listUsers,
      kind.listUsers(org.api, id, { limit: 1, page: page.data.next?.page }),
      200,
    );
    expect(next.data.items).toHaveLength(1);

    const teams = await expectConforms(ops.listTeams, kind.listTeams(org.api, id), 200);
    expect(teams.data.items.map((e: any) => [e.team.id, e.permission])).toEqual([[team.id, 'comment']]);
    // A reader may list the grants too.
    await expectConforms(ops.listTeams, kind.listTeams(reader.api, id), 200);
    await expectConforms(ops.listUsers, kind.listUsers(reader.api, id), 200);
  });

  it(`${ops.aggregate}, with the role filter and paging`, async () => {
    const { org, id, guest, reader, teamMember, team } = await permissionFixture(kind);
    await kind.invite(org.api, id, { role: official.MemberRole.Edit, users: [guest.user.id] });
    await kind.invite(org.api, id, { role: official.MemberRole.Review, teams: [team.id] });

    const all = await expectConforms(ops.aggregate, kind.aggregate(org.api, id), 200);
    const roles = Object.fromEntries(all.data.items.map((e: any) => [e.user.id, e.permission]));
    expect(roles).toEqual({
      [org.admin.user.id]: 'admin',
      [reader.user.id]: 'read',
      [guest.user.id]: 'edit',
      [teamMember.user.id]: 'review',
    });
    const editors = await expectConforms(
      ops.aggregate,
      kind.aggregate(org.api, id, { role: official.MemberRole.Edit }),
      200,
    );
    expect(editors.data.items.map((e: any) => e.user.id)).toEqual([guest.user.id]);
    const first = await expectConforms(ops.aggregate, kind.aggregate(org.api, id, { limit: 3 }), 200);
    expect(first.data.items).toHaveLength(3);
    const rest = await expectConforms(
      ops.aggregate,
      kind.aggregate(org.api, id, { limit: 3, page: first.data.next?.page }),
      200,
    );
    expect(rest.data.items).toHaveLength(1);
  });

  it(`${ops.updateUser}, ${ops.updateTeam}, ${ops.removeUser}, ${ops.removeTeam}`, async () => {
    const { org, id, guest, team } = await permissionFixture(kind);
    await kind.invite(org.api, id, { role: official.MemberRole.Read, users: [guest.user.id], teams: [team.id] });

    await expectConforms(
      ops.updateUser,
      kind.updateUser(org.api, id, guest.user.id, allowed(ops.updateUser, { role: official.MemberRole.Admin })),
      204,
    );
    await expectConforms(
      ops.updateTeam,
      kind.updateTeam(org.api, id, team.id, allowed(ops.updateTeam, { role: official.MemberRole.Create })),
      204,
    );
    // Without a role, nothing changes.
    await expectConforms(ops.updateUser, kind.updateUser(org.api, id, guest.user.id, allowed(ops.updateUser, {})), 204);
    await expectConforms(ops.updateTeam, kind.updateTeam(org.api, id, team.id, allowed(ops.updateTeam, {})), 204);
    const users = await expectConforms(ops.listUsers, kind.listUsers(org.api, id), 200);
    expect(users.data.items.map((e: any) => [e.user.id, e.permission])).toEqual([[guest.user.id, 'admin']]);
    const teams = await expectConforms(ops.listTeams, kind.listTeams(org.api, id), 200);
    expect(teams.data.items.map((e: any) => [e.team.id, e.permission])).toEqual([[team.id, 'create']]);

    const removedUser = await expectConforms(ops.removeUser, kind.removeUser(org.api, id, guest.user.id));
    expect([204, 205]).toContain(removedUser.status);
    const removedTeam = await expectConforms(ops.removeTeam, kind.removeTeam(org.api, id, team.id));
    expect([204, 205]).toContain(removedTeam.status);
    expect((await expectConforms(ops.listUsers, kind.listUsers(org.api, id), 200)).data.items).toEqual([]);
    expect((await expectConforms(ops.listTeams, kind.listTeams(org.api, id), 200)).data.items).toEqual([]);

    // Updating a user who has no grant here: 404 (documented).
    await expectApiError(
      ops.updateUser,
      kind.updateUser(org.api, id, guest.user.id, allowed(ops.updateUser, { role: official.MemberRole.Read })),
      404,
    );
  });
});

describe('listSpacesForOrganizationMember', () => {
  it('lists the spaces a member can access with their role, ordered and paged', async () => {
    const org = await newOrg();
    const member = await newMember(org.id, official.MemberRole.Read);
    const first = await space(org, { title: 'first' });
    const locked = await space(org, { title: 'locked' });
    await org.api.spaces.updateSpaceById(locked.id, { defaultLevel: null });
    const granted = await space(org, { title: 'granted' });
    await org.api.spaces.inviteToSpace(granted.id, { role: official.MemberRole.Edit, users: [member.user.id] });

    const op = 'listSpacesForOrganizationMember';
    const desc = await expectConforms(op, org.api.orgs.listSpacesForOrganizationMember(org.id, member.user.id), 200);
    expect(desc.data.items.map((e) => [e.space.id, e.permission])).toEqual([
      [granted.id, 'edit'],
      [first.id, 'read'],
    ]);
    const asc = await expectConforms(
      op,
      org.api.orgs.listSpacesForOrganizationMember(org.id, member.user.id, { order: 'asc' }),
      200,
    );
    expect(asc.data.items.map((e) => e.space.id)).toEqual([first.id, granted.id]);
    const paged = await expectConforms(
      op,
      org.api.orgs.listSpacesForOrganizationMember(org.id, member.user.id, { order: 'asc', limit: 1 }),
      200,
    );
    expect(paged.data.next?.page).toBeTruthy();
    const rest = await expectConforms(
      op,
      org.api.orgs.listSpacesForOrganizationMember(org.id, member.user.id, {
        order: 'asc',
        limit: 1,
        page: paged.data.next?.page,
      }),
      200,
    );
    expect(rest.data.items.map((e) => e.space.id)).toEqual([granted.id]);
    // The member asking for themselves.
    const own = await expectConforms(op, member.api.orgs.listSpacesForOrganizationMember(org.id, member.user.id), 200);
    expect(own.data.items).toHaveLength(2);
  });
});

describe('errors surface as GitBookAPIError with the official Error body', () => {
  it('404 for an outsider, on a space and on a collection', async () => {
    const org = await newOrg();
    const s = await space(org);
    const c = await collection(org);
    const outsider = (await newOrg()).api;
    const { error, body } = await expectApiError('getSpaceById', outsider.spaces.getSpaceById(s.id), 404);
    expect(body).toEqual({ error: { code: 404, message: error.errorMessage } });
    await expectApiError('getCollectionById', outsider.collections.getCollectionById(c.id), 404);
    await expectApiError('listUserPermissionsInSpace', outsider.spaces.listUserPermissionsInSpace(s.id), 404);
    await expectApiError('listSpacesInOrganizationById', outsider.orgs.listSpacesInOrganizationById(org.id), 404);
    await expectApiError('moveSpace', outsider.spaces.moveSpace(s.id, { parent: null }), 404);
  });

  it('403 for a reader who updates, deletes, invites or creates', async () => {
    const org = await newOrg();
    const s = await space(org);
    const c = await collection(org);
    const reader = await newMember(org.id, official.MemberRole.Read);
    const { error } = await expectApiError(
      'updateSpaceById',
      reader.api.spaces.updateSpaceById(s.id, allowed('updateSpaceById', { title: 'Nope' })),
      403,
    );
    expect(error.errorMessage).toMatch(/admin/);
    await expectApiError('deleteSpaceById', reader.api.spaces.deleteSpaceById(s.id), 403);
    await expectApiError('deleteCollectionById', reader.api.collections.deleteCollectionById(c.id), 403);
    await expectApiError(
      'inviteToCollection',
      reader.api.collections.inviteToCollection(c.id, { role: official.MemberRole.Edit, users: [reader.user.id] }),
      403,
    );
    await expectApiError('createSpace', reader.api.orgs.createSpace(org.id, allowed('createSpace', {})), 403);
    await expectApiError(
      'createCollection',
      reader.api.orgs.createCollection(org.id, allowed('createCollection', { parent: c.id })),
      403,
    );
  });

  it('400 for an invalid body', async () => {
    const org = await newOrg();
    const s = await space(org);
    await expectApiError('updateSpaceById', org.api.spaces.updateSpaceById(s.id, { title: 'x'.repeat(51) }), 400);
  });
});

/**
 * Edge cases the official document describes. One deliberate difference: Bindery answers 204 to
 * every deletion (the project's convention for "no body" operations) where the document gives 205
 * for "has been deleted" and 204 for "did not exist"; both are documented statuses of these operations.
 */
describe('official edge cases', () => {
  it('updateSpaceById accepts the official `mergeRules` field', async () => {
    const org = await newOrg();
    const s = await space(org);
    const body = allowed('updateSpaceById', { mergeRules: { type: 'inherit' as const } });
    const res = await expectConforms('updateSpaceById', org.api.spaces.updateSpaceById(s.id, body), 200);
    expect(res.data.mergeRules).toEqual({ type: 'inherit' });
  });

  it('updateSpaceById with an `icon` URL reports it in urls.icon', async () => {
    const org = await newOrg();
    const s = await space(org);
    const icon = 'https://example.test/icon.png';
    const res = await expectConforms(
      'updateSpaceById',
      org.api.spaces.updateSpaceById(s.id, allowed('updateSpaceById', { icon })),
      200,
    );
    expect(res.data.urls.icon).toBe(icon);
  });

  it('deleteSpaceById and deleteCollectionById of existing items answer 204', async () => {
    const org = await newOrg();
    const s = await space(org);
    await expectConforms('deleteSpaceById', org.api.spaces.deleteSpaceById(s.id), 204);
    const c = await collection(org);
    await expectConforms('deleteCollectionById', org.api.collections.deleteCollectionById(c.id), 204);
  });

  it('deleteSpaceById of an already deleted space answers 204 ("Space did not exist")', async () => {
    const org = await newOrg();
    const s = await space(org);
    await org.api.spaces.deleteSpaceById(s.id);
    await expectConforms('deleteSpaceById', org.api.spaces.deleteSpaceById(s.id), 204);
  });

  describe.each(KINDS)('in a $name', (kind) => {
    const ops = opsOf(kind);

    it(`${ops.invite} of an id that is no member answers 404 ("No team or user with the provided Id")`, async () => {
      const { org, id } = await permissionFixture(kind);
      const outsider = await server.harness.user();
      const body = allowed(ops.invite, { role: official.MemberRole.Read, users: [outsider.user.id] });
      await expectApiError(ops.invite, kind.invite(org.api, id, body), 404);
    });

    it(`${ops.invite} accepts an empty \`teams\` beside \`users\` (InviteUsersAndTeams allows it)`, async () => {
      const { org, id, reader } = await permissionFixture(kind);
      const body = allowed(ops.invite, { role: official.MemberRole.Edit, users: [reader.user.id], teams: [] });
      await expectConforms(ops.invite, kind.invite(org.api, id, body), 204);
    });

    it(`${ops.removeUser} and ${ops.removeTeam} of existing grants answer 204`, async () => {
      const { org, id, guest, team } = await permissionFixture(kind);
      await kind.invite(org.api, id, { role: official.MemberRole.Read, users: [guest.user.id], teams: [team.id] });
      await expectConforms(ops.removeUser, kind.removeUser(org.api, id, guest.user.id), 204);
      await expectConforms(ops.removeTeam, kind.removeTeam(org.api, id, team.id), 204);
    });

    it(`${ops.removeUser} of a member without a grant answers 204 ("The user was not found")`, async () => {
      const { org, id, reader } = await permissionFixture(kind);
      await expectConforms(ops.removeUser, kind.removeUser(org.api, id, reader.user.id), 204);
    });

    it(`${ops.removeTeam} of a team without a grant answers a documented status`, async () => {
      const { org, id, team } = await permissionFixture(kind);
      // 204 ("The team was not found"), or for spaces 400 ("Team does not have access to space").
      const status = await kind.removeTeam(org.api, id, team.id).then(
        (res: { status: number }) => res.status,
        (error: unknown) => {
          if (error instanceof official.GitBookAPIError) return error.code;
          throw error;
        },
      );
      expect(documentedStatuses(ops.removeTeam)).toContain(status);
    });
  });

  it('transferCollection to its own organization answers 409 ("Transfer would not result in any update")', async () => {
    const org = await newOrg();
    const c = await collection(org);
    await expectApiError(
      'transferCollection',
      org.api.collections.transferCollection(c.id, allowed('transferCollection', { organization: org.id })),
      409,
    );
  });
});

describe('coverage', () => {
  it('validated every operation of these areas', () => {
    expectOperationsCovered(SPACE_OPERATIONS);
  });
});
