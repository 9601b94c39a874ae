/**
 * Contract test of the permissions of spaces and collections (and the member's spaces): every
 * operation is driven through the official `@gitbook/api` client against a listening server, every
 * request body is first checked against the official request schema, and every response body is
 * validated against the schema GitBook's own OpenAPI document gives that operation. The permission
 * operations are the same for spaces and collections, so each test runs for both kinds (`KINDS` of
 * test/helpers/spaces-contract.ts, with the rest of the shared set-up).
 */
import { describe, expect, it } from 'vitest';
import { KINDS, opsOf, PERMISSION_OPERATIONS, permissionFixture, space } from '../helpers/spaces-contract.js';
import { official } from './official.js';
import { newMember, newOrg, useContractServer } from './server.js';
import { allowed, expectApiError, expectConforms, expectOperationsCovered } from './validate.js';

useContractServer();

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

/**
 * This file's part of the operations of these areas; spaces.contract.test.ts checks the rest, and
 * that the two parts together are every operation of SPACE_OPERATIONS.
 */
describe('coverage', () => {
  it('validated every operation of its part of these areas (PERMISSION_OPERATIONS)', () => {
    expectOperationsCovered(PERMISSION_OPERATIONS);
  });
});
