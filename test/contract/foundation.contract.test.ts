/**
 * Contract test of the foundation areas (user, organizations, members, teams): every operation is
 * driven through the official `@gitbook/api` client against a listening server, and every response
 * body is validated against the schema GitBook's own OpenAPI document gives that operation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import { type GitBookAPI, official } from './official.js';
import { type ContractServer, startContractServer } from './server.js';
import { expectApiError, expectConforms, expectOperationsCovered, findOperation } from './validate.js';

/** Every operation of these areas; the last test fails if one of them was never validated. */
const FOUNDATION_OPERATIONS = [
  'getAuthenticatedUser',
  'listOrganizationsForAuthenticatedUser',
  'createOrganization',
  'getOrganizationById',
  'updateOrganizationById',
  'updateOrganizationMemberLastSeenAt',
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

const unique = () => Math.random().toString(36).slice(2, 10);

describe('the official document', () => {
  it('has every operation of these areas', () => {
    for (const id of FOUNDATION_OPERATIONS) expect(findOperation(id).operationId).toBe(id);
  });
});

describe('users', () => {
  it('getAuthenticatedUser', async () => {
    const { admin, api } = await newOrg();
    const res = await expectConforms('getAuthenticatedUser', api.user.getAuthenticatedUser(), 200);
    expect(res.data.id).toBe(admin.user.id);
    expect(res.data.email).toBe(admin.user.email);
  });
});

describe('organizations', () => {
  it('listOrganizationsForAuthenticatedUser, paged', async () => {
    const { id, api } = await newOrg();
    const created = await expectConforms(
      'createOrganization',
      api.orgs.createOrganization({ title: `Second ${unique()}` }),
      201,
    );
    const all = await expectConforms(
      'listOrganizationsForAuthenticatedUser',
      api.orgs.listOrganizationsForAuthenticatedUser(),
      200,
    );
    expect(all.data.items.map((o) => o.id)).toEqual([id, created.data.id]);
    const first = await expectConforms(
      'listOrganizationsForAuthenticatedUser',
      api.orgs.listOrganizationsForAuthenticatedUser({ limit: 1 }),
      200,
    );
    expect(first.data.next?.page).toBeTruthy();
    const second = await expectConforms(
      'listOrganizationsForAuthenticatedUser',
      api.orgs.listOrganizationsForAuthenticatedUser({ limit: 1, page: first.data.next?.page }),
      200,
    );
    expect(second.data.items.map((o) => o.id)).toEqual([created.data.id]);
  });

  it('getOrganizationById, as an admin and as a reader', async () => {
    const { id, api } = await newOrg();
    const asAdmin = await expectConforms('getOrganizationById', api.orgs.getOrganizationById(id), 200);
    expect(asAdmin.data.permissions.admin).toBe(true);
    const reader = await server.harness.member(id, 'read');
    const asReader = await expectConforms(
      'getOrganizationById',
      server.client(reader.token).orgs.getOrganizationById(id),
      200,
    );
    expect(asReader.data.permissions.admin).toBe(false);
  });

  it('updateOrganizationById, setting and clearing the optional fields', async () => {
    const { id, api } = await newOrg();
    const hostname = `h${unique()}`;
    const set = await expectConforms(
      'updateOrganizationById',
      api.orgs.updateOrganizationById(id, {
        title: 'Renamed organization',
        emailDomains: ['Example.test'],
        hostname,
        defaultRole: official.MemberRole.Edit,
        defaultContent: { type: 'site', site: 'site_main' },
        logo: 'https://example.test/logo.png',
        sso: true,
        ai: false,
        inviteLinks: true,
      }),
      200,
    );
    expect(set.data).toMatchObject({
      title: 'Renamed organization',
      emailDomains: ['example.test'],
      hostname,
      defaultRole: 'edit',
      defaultContent: { type: 'site', site: 'site_main' },
      sso: true,
      ai: false,
      inviteLinks: true,
    });
    expect(set.data.urls.logo).toBe('https://example.test/logo.png');
    const cleared = await expectConforms(
      'updateOrganizationById',
      api.orgs.updateOrganizationById(id, { defaultRole: null, defaultContent: null, logo: null }),
      200,
    );
    expect(cleared.data.defaultRole).toBeNull();
    expect(cleared.data.defaultContent).toBeUndefined();
    expect(cleared.data.urls.logo).toBeUndefined();
  });

  it('updateOrganizationMemberLastSeenAt (ping), as an admin and as a guest', async () => {
    const { id, api } = await newOrg();
    const res = await expectConforms(
      'updateOrganizationMemberLastSeenAt',
      api.orgs.updateOrganizationMemberLastSeenAt(id),
      200,
    );
    expect(typeof res.data.gitbookVisitorClaims).toBe('string');
    const guest = await server.harness.member(id, null);
    await expectConforms(
      'updateOrganizationMemberLastSeenAt',
      server.client(guest.token).orgs.updateOrganizationMemberLastSeenAt(id),
      200,
    );
  });
});

describe('members', () => {
  it('inviteUsersToOrganization', async () => {
    const { id, api } = await newOrg();
    const a = `a-${unique()}@example.test`;
    const b = `b-${unique()}@example.test`;
    const res = await expectConforms(
      'inviteUsersToOrganization',
      api.orgs.inviteUsersToOrganization(id, {
        emails: [a, { email: b, role: null }],
        role: official.MemberRole.Comment,
        sso: true,
      }),
      200,
    );
    expect(res.data.invited).toBe(2);
    expect(res.data.users).toHaveLength(2);
    const again = await expectConforms(
      'inviteUsersToOrganization',
      api.orgs.inviteUsersToOrganization(id, { emails: [a] }),
      200,
    );
    expect(again.data).toMatchObject({ users: [], invited: 0 });
  });

  it('listMembersInOrganizationById, with every filter and paging', async () => {
    const { id, admin, api } = await newOrg();
    const editor = await server.harness.member(id, 'edit');
    const guest = await server.harness.member(id, null);
    await server.client(editor.token).orgs.updateOrganizationMemberLastSeenAt(id);
    const op = 'listMembersInOrganizationById';
    const all = await expectConforms(op, api.orgs.listMembersInOrganizationById(id), 200);
    expect(all.data.count).toBe(3);
    const byName = await expectConforms(
      op,
      api.orgs.listMembersInOrganizationById(id, { sort: 'name', order: 'asc', limit: 2 }),
      200,
    );
    expect(byName.data.items).toHaveLength(2);
    expect(byName.data.next?.page).toBeTruthy();
    const rest = await expectConforms(
      op,
      api.orgs.listMembersInOrganizationById(id, {
        sort: 'name',
        order: 'asc',
        limit: 2,
        page: byName.data.next?.page,
      }),
      200,
    );
    expect(rest.data.items).toHaveLength(1);
    const seen = await expectConforms(op, api.orgs.listMembersInOrganizationById(id, { sort: 'lastSeenAt' }), 200);
    expect(seen.data.items.map((m) => m.id)).toEqual([editor.user.id]);
    expect(seen.data.items[0]?.lastSeenAt).toBeTruthy();
    const guests = await expectConforms(op, api.orgs.listMembersInOrganizationById(id, { role: 'guest' }), 200);
    expect(guests.data.items.map((m) => m.id)).toEqual([guest.user.id]);
    const search = await expectConforms(
      op,
      api.orgs.listMembersInOrganizationById(id, { search: admin.user.email }),
      200,
    );
    expect(search.data.items.map((m) => m.id)).toEqual([admin.user.id]);
  });

  it('getMemberInOrganizationById', async () => {
    const { id, api } = await newOrg();
    const member = await server.harness.member(id, 'review');
    const res = await expectConforms(
      'getMemberInOrganizationById',
      api.orgs.getMemberInOrganizationById(id, member.user.id),
      200,
    );
    expect(res.data).toMatchObject({ id: member.user.id, role: 'review' });
  });

  it('updateMemberInOrganizationById, to a role and to guest', async () => {
    const { id, api } = await newOrg();
    const member = await server.harness.member(id, 'read');
    const op = 'updateMemberInOrganizationById';
    const edit = await expectConforms(
      op,
      api.orgs.updateMemberInOrganizationById(id, member.user.id, { role: official.MemberRole.Edit }),
      200,
    );
    expect(edit.data.role).toBe('edit');
    const guest = await expectConforms(
      op,
      api.orgs.updateMemberInOrganizationById(id, member.user.id, { role: null }),
      200,
    );
    expect(guest.data.role).toBeNull();
  });

  it('setUserAsSSOMemberForOrganization', async () => {
    const { id, api } = await newOrg();
    const member = await server.harness.member(id, 'read');
    const res = await expectConforms(
      'setUserAsSSOMemberForOrganization',
      api.orgs.setUserAsSsoMemberForOrganization(id, member.user.id),
      200,
    );
    expect(res.data.sso).toBe(true);
  });

  it('listTeamsForOrganizationMember', async () => {
    const { id, api } = await newOrg();
    const member = await server.harness.member(id, 'read');
    await api.orgs.createOrganizationTeam(id, { title: 'Alpha', members: [member.user.id] });
    await api.orgs.createOrganizationTeam(id, { title: 'Beta', members: [member.user.id] });
    const op = 'listTeamsForOrganizationMember';
    const all = await expectConforms(op, api.orgs.listTeamsForOrganizationMember(id, member.user.id), 200);
    expect(all.data.items.map((t) => t.team.title)).toEqual(['Alpha', 'Beta']);
    expect(all.data.items[0]?.member.role).toBe('member');
    const filtered = await expectConforms(
      op,
      api.orgs.listTeamsForOrganizationMember(id, member.user.id, { title: 'bet', limit: 10 }),
      200,
    );
    expect(filtered.data.items.map((t) => t.team.title)).toEqual(['Beta']);
  });

  it('removeMemberFromOrganizationById', async () => {
    const { id, api } = await newOrg();
    const member = await server.harness.member(id, 'read');
    const res = await expectConforms(
      'removeMemberFromOrganizationById',
      api.orgs.removeMemberFromOrganizationById(id, member.user.id),
      204,
    );
    expect(res.status).toBe(204);
    await expectApiError('getMemberInOrganizationById', api.orgs.getMemberInOrganizationById(id, member.user.id), 404);
  });
});

describe('teams', () => {
  it('createOrganizationTeam, with members by id and by e-mail', async () => {
    const { id, api } = await newOrg();
    const a = await server.harness.member(id, 'read');
    const b = await server.harness.member(id, 'edit');
    const res = await expectConforms(
      'createOrganizationTeam',
      api.orgs.createOrganizationTeam(id, { title: 'Writers', members: [a.user.id, b.user.email] }),
      201,
    );
    expect(res.data).toMatchObject({ title: 'Writers', members: 2 });
    const empty = await expectConforms(
      'createOrganizationTeam',
      api.orgs.createOrganizationTeam(id, { title: 'Empty' }),
      201,
    );
    expect(empty.data.members).toBe(0);
  });

  it('listTeamsInOrganizationById, with the owner and title filters', async () => {
    const { id, api } = await newOrg();
    const owner = await server.harness.member(id, 'read');
    const alpha = await api.orgs.createOrganizationTeam(id, { title: 'Alpha team' });
    await api.orgs.createOrganizationTeam(id, { title: 'Beta team' });
    await api.orgs.addMemberToOrganizationTeamById(id, alpha.data.id, owner.user.id, {
      role: official.TeamMemberRole.Owner,
    });
    const op = 'listTeamsInOrganizationById';
    const all = await expectConforms(op, api.orgs.listTeamsInOrganizationById(id), 200);
    expect(all.data.items.map((t) => t.title)).toEqual(['Alpha team', 'Beta team']);
    const owned = await expectConforms(op, api.orgs.listTeamsInOrganizationById(id, { owner: owner.user.id }), 200);
    expect(owned.data.items.map((t) => t.id)).toEqual([alpha.data.id]);
    const titled = await expectConforms(op, api.orgs.listTeamsInOrganizationById(id, { title: 'BETA', limit: 5 }), 200);
    expect(titled.data.items.map((t) => t.title)).toEqual(['Beta team']);
    const paged = await expectConforms(op, api.orgs.listTeamsInOrganizationById(id, { limit: 1 }), 200);
    expect(paged.data.next?.page).toBeTruthy();
    // As the owner, who manages only their team.
    const asOwner = await expectConforms(op, server.client(owner.token).orgs.listTeamsInOrganizationById(id), 200);
    expect(asOwner.data.items.map((t) => t.permissions.admin)).toEqual([true, false]);
  });

  it('getTeamInOrganizationById and updateTeamInOrganizationById', async () => {
    const { id, api } = await newOrg();
    const team = await api.orgs.createOrganizationTeam(id, { title: 'Before' });
    const got = await expectConforms(
      'getTeamInOrganizationById',
      api.orgs.getTeamInOrganizationById(id, team.data.id),
      200,
    );
    expect(got.data.title).toBe('Before');
    const updated = await expectConforms(
      'updateTeamInOrganizationById',
      api.orgs.updateTeamInOrganizationById(id, team.data.id, { title: 'After' }),
      200,
    );
    expect(updated.data.title).toBe('After');
  });

  it('team membership: update, add, list, delete', async () => {
    const { id, api } = await newOrg();
    const a = await server.harness.member(id, 'read');
    const b = await server.harness.member(id, 'edit');
    const c = await server.harness.member(id, null);
    const team = await api.orgs.createOrganizationTeam(id, { title: 'Team', members: [a.user.id] });
    const teamId = team.data.id;

    await expectConforms(
      'updateMembersInOrganizationTeam',
      api.orgs.updateMembersInOrganizationTeam(id, teamId, {
        add: [b.user.email],
        memberships: { [a.user.id]: { role: official.TeamMemberRole.Owner } },
      }),
      204,
    );
    await expectConforms(
      'addMemberToOrganizationTeamById',
      api.orgs.addMemberToOrganizationTeamById(id, teamId, c.user.id, { role: official.TeamMemberRole.Member }),
      204,
    );
    await expectConforms(
      'addMemberToOrganizationTeamById',
      api.orgs.addMemberToOrganizationTeamById(id, teamId, c.user.id, {}),
      204,
    );

    const op = 'listTeamMembersInOrganizationById';
    const members = await expectConforms(op, api.orgs.listTeamMembersInOrganizationById(id, teamId), 200);
    const roles = Object.fromEntries(members.data.items.map((m) => [m.organization.id, m.team.role]));
    expect(roles).toEqual({ [a.user.id]: 'owner', [b.user.id]: 'member', [c.user.id]: 'member' });
    const paged = await expectConforms(op, api.orgs.listTeamMembersInOrganizationById(id, teamId, { limit: 2 }), 200);
    expect(paged.data.next?.page).toBeTruthy();

    await expectConforms(
      'deleteMemberFromOrganizationTeamById',
      api.orgs.deleteMemberFromOrganizationTeamById(id, teamId, c.user.id),
      204,
    );
    await expectConforms(
      'updateMembersInOrganizationTeam',
      api.orgs.updateMembersInOrganizationTeam(id, teamId, { remove: [b.user.id] }),
      204,
    );
    const after = await expectConforms(op, api.orgs.listTeamMembersInOrganizationById(id, teamId), 200);
    expect(after.data.items.map((m) => m.organization.id)).toEqual([a.user.id]);

    // The team owner (an org reader) manages the team's members too.
    await expectConforms(
      'addMemberToOrganizationTeamById',
      server.client(a.token).orgs.addMemberToOrganizationTeamById(id, teamId, b.user.id, {}),
      204,
    );
  });

  it('removeTeamFromOrganizationById', async () => {
    const { id, api } = await newOrg();
    const team = await api.orgs.createOrganizationTeam(id, { title: 'Doomed' });
    const res = await expectConforms(
      'removeTeamFromOrganizationById',
      api.orgs.removeTeamFromOrganizationById(id, team.data.id),
      204,
    );
    expect(res.status).toBe(204);
    await expectApiError('getTeamInOrganizationById', api.orgs.getTeamInOrganizationById(id, team.data.id), 404);
  });
});

describe('errors surface as GitBookAPIError with the official Error body', () => {
  it('404 for an unknown organization', async () => {
    const { api } = await newOrg();
    const { error, body } = await expectApiError(
      'getOrganizationById',
      api.orgs.getOrganizationById('no-such-organization'),
      404,
    );
    expect(error.name).toBe('GitBookAPIError');
    expect(error.code).toBe(404);
    expect(error.errorMessage).toMatch(/not found/);
    expect(body).toEqual({ error: { code: 404, message: error.errorMessage } });
  });

  it('400 for an invalid update', async () => {
    const { id, api } = await newOrg();
    const { error } = await expectApiError(
      'updateOrganizationById',
      api.orgs.updateOrganizationById(id, { title: 'x' }),
      400,
    );
    expect(error.errorMessage).toMatch(/title/);
  });

  it('401 for an unknown token', async () => {
    const { error } = await expectApiError(
      'getAuthenticatedUser',
      server.client('bnd_not-a-token').user.getAuthenticatedUser(),
      401,
    );
    expect(error.code).toBe(401);
  });

  it('403 when a reader updates the organization', async () => {
    const { id } = await newOrg();
    const reader = await server.harness.member(id, 'read');
    await expectApiError(
      'updateOrganizationById',
      server.client(reader.token).orgs.updateOrganizationById(id, { title: 'Nope' }),
      403,
    );
  });

  it('409 when the last admin leaves', async () => {
    const { id, admin, api } = await newOrg();
    await expectApiError(
      'removeMemberFromOrganizationById',
      api.orgs.removeMemberFromOrganizationById(id, admin.user.id),
      409,
    );
  });

  it('404 for an unknown team and member', async () => {
    const { id, api } = await newOrg();
    await expectApiError('getTeamInOrganizationById', api.orgs.getTeamInOrganizationById(id, 'no-such-team'), 404);
    await expectApiError('getMemberInOrganizationById', api.orgs.getMemberInOrganizationById(id, 'no-such-user'), 404);
  });
});

describe('coverage', () => {
  it('validated every operation of these areas', () => {
    expectOperationsCovered(FOUNDATION_OPERATIONS);
  });
});
