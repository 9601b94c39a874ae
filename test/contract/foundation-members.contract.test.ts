/**
 * Contract test of the foundation areas' members and teams: every operation is driven through the
 * official `@gitbook/api` client against a listening server, and every response body is validated
 * against the schema GitBook's own OpenAPI document gives that operation. The user, organizations and
 * the errors of all the foundation areas are in foundation.contract.test.ts; the shared set-up is in
 * test/helpers/foundation-contract.ts.
 */
import { describe, expect, it } from 'vitest';
import { MEMBER_AND_TEAM_OPERATIONS } from '../helpers/foundation-contract.js';
import { official } from './official.js';
import { contractServer, newOrg, unique, useContractServer } from './server.js';
import { expectApiError, expectConforms, expectOperationsCovered } from './validate.js';

useContractServer();

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
    const editor = await contractServer().harness.member(id, 'edit');
    const guest = await contractServer().harness.member(id, null);
    await contractServer().client(editor.token).orgs.updateOrganizationMemberLastSeenAt(id);
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
    const member = await contractServer().harness.member(id, 'review');
    const res = await expectConforms(
      'getMemberInOrganizationById',
      api.orgs.getMemberInOrganizationById(id, member.user.id),
      200,
    );
    expect(res.data).toMatchObject({ id: member.user.id, role: 'review' });
  });

  it('updateMemberInOrganizationById, to a role and to guest', async () => {
    const { id, api } = await newOrg();
    const member = await contractServer().harness.member(id, 'read');
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
    const member = await contractServer().harness.member(id, 'read');
    const res = await expectConforms(
      'setUserAsSSOMemberForOrganization',
      api.orgs.setUserAsSsoMemberForOrganization(id, member.user.id),
      200,
    );
    expect(res.data.sso).toBe(true);
  });

  it('listTeamsForOrganizationMember', async () => {
    const { id, api } = await newOrg();
    const member = await contractServer().harness.member(id, 'read');
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
    const member = await contractServer().harness.member(id, 'read');
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
    const a = await contractServer().harness.member(id, 'read');
    const b = await contractServer().harness.member(id, 'edit');
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
    const owner = await contractServer().harness.member(id, 'read');
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
    const asOwner = await expectConforms(
      op,
      contractServer().client(owner.token).orgs.listTeamsInOrganizationById(id),
      200,
    );
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
    const a = await contractServer().harness.member(id, 'read');
    const b = await contractServer().harness.member(id, 'edit');
    const c = await contractServer().harness.member(id, null);
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
      contractServer().client(a.token).orgs.addMemberToOrganizationTeamById(id, teamId, b.user.id, {}),
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

/**
 * This file's part of the operations of these areas; foundation.contract.test.ts checks the rest, and
 * that the two parts together are every operation of FOUNDATION_OPERATIONS.
 */
describe('coverage', () => {
  it('validated every operation of its part of these areas (MEMBER_AND_TEAM_OPERATIONS)', () => {
    expectOperationsCovered(MEMBER_AND_TEAM_OPERATIONS);
  });
});
