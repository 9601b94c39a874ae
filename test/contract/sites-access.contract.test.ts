/**
 * Contract test of a site's permissions (who may manage it): every operation through the official
 * `@gitbook/api` client, every body validated against the official OpenAPI document; and what a grant
 * gives — the management of that one site at the granted role, nothing more — with `Member.sites`.
 */
import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/sites-contract.js';
import { official } from './official.js';
import { contractServer, newMember, newOrg, newOutsider, useContractServer } from './server.js';
import { expectApiError, expectConforms, expectOperationsCovered } from './validate.js';

useContractServer();

const PERMISSION_OPERATIONS = [
  'inviteToSite',
  'listUserPermissionsInSite',
  'updateUserPermissionInSite',
  'removeUserFromSite',
  'listTeamPermissionsInSite',
  'updateTeamPermissionInSite',
  'removeTeamFromSite',
] as const;

const Role = official.MemberRole;

describe('site permissions', () => {
  it('invite users and teams, list, update and remove their grants', async () => {
    const f = await fixture();
    const reader = await newMember(f.orgId, 'read');
    const teamMate = await newMember(f.orgId, 'read');
    const team = await f.api.orgs.createOrganizationTeam(f.orgId, { title: 'Writers', members: [teamMate.user.id] });
    const teamId = team.data.id;

    await expectConforms(
      'inviteToSite',
      f.api.orgs.inviteToSite(f.orgId, f.siteId, { role: Role.Create, users: [reader.user.id] }),
      204,
    );
    await expectConforms(
      'inviteToSite',
      f.api.orgs.inviteToSite(f.orgId, f.siteId, { role: Role.Read, teams: [teamId] }),
      204,
    );
    const users = await expectConforms(
      'listUserPermissionsInSite',
      f.api.orgs.listUserPermissionsInSite(f.orgId, f.siteId),
      200,
    );
    expect(users.data.items.map((i) => [i.user.id, i.permission])).toEqual([[reader.user.id, 'create']]);
    const teams = await expectConforms(
      'listTeamPermissionsInSite',
      f.api.orgs.listTeamPermissionsInSite(f.orgId, f.siteId),
      200,
    );
    expect(teams.data.items.map((i) => [i.team.id, i.permission])).toEqual([[teamId, 'read']]);

    await expectConforms(
      'updateUserPermissionInSite',
      f.api.orgs.updateUserPermissionInSite(f.orgId, f.siteId, reader.user.id, { role: Role.Admin }),
      204,
    );
    await expectConforms(
      'updateTeamPermissionInSite',
      f.api.orgs.updateTeamPermissionInSite(f.orgId, f.siteId, teamId, { role: Role.Admin }),
      204,
    );
    const after = await f.api.orgs.listTeamPermissionsInSite(f.orgId, f.siteId);
    expect(after.data.items[0]?.permission).toBe('admin');
    // A principal without a grant here: 404 on update, 204 (nothing removed) on removal.
    await expectApiError(
      'updateUserPermissionInSite',
      f.api.orgs.updateUserPermissionInSite(f.orgId, f.siteId, teamMate.user.id, { role: Role.Read }),
      404,
    );
    await expectConforms('removeUserFromSite', f.api.orgs.removeUserFromSite(f.orgId, f.siteId, teamMate.user.id), 204);
    await expectConforms('removeUserFromSite', f.api.orgs.removeUserFromSite(f.orgId, f.siteId, reader.user.id), 205);
    await expectConforms('removeTeamFromSite', f.api.orgs.removeTeamFromSite(f.orgId, f.siteId, teamId), 205);
    await expectConforms('removeTeamFromSite', f.api.orgs.removeTeamFromSite(f.orgId, f.siteId, teamId), 204);
    expect((await f.api.orgs.listUserPermissionsInSite(f.orgId, f.siteId)).data.items).toEqual([]);
  });

  it('an unknown user or team is a 404 and nothing is granted; bad input is a 400', async () => {
    const f = await fixture();
    const member = await newMember(f.orgId, 'read');
    const stranger = await newOutsider();
    await expectApiError(
      'inviteToSite',
      f.api.orgs.inviteToSite(f.orgId, f.siteId, { role: Role.Admin, users: [member.user.id, stranger.user.id] }),
      404,
    );
    expect((await f.api.orgs.listUserPermissionsInSite(f.orgId, f.siteId)).data.items).toEqual([]);
    const api = `/v1/orgs/${f.orgId}/sites/${f.siteId}/permissions`;
    const token = f.token;
    const raw = (body: unknown) =>
      fetch(`${contractServer().endpoint}${api}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const body of [{ role: 'owner', users: [member.user.id] }, { users: [member.user.id] }, { role: 'read' }]) {
      const res = await raw(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(400);
    }
  });

  it('a grant gives the management of that one site at its role, and nothing more', async () => {
    const f = await fixture();
    const other = await f.api.orgs.createSite(f.orgId, { title: 'Other', spaces: [f.spaces[2] as string] });
    const reader = await newMember(f.orgId, 'read');
    const guest = await newMember(f.orgId, null);
    // Before: a reader can see but not change the site (403); a guest cannot see it (404).
    await expectApiError('updateSiteById', reader.api.orgs.updateSiteById(f.orgId, f.siteId, { title: 'Mine' }), 403);
    await expectApiError('getSiteById', guest.api.orgs.getSiteById(f.orgId, f.siteId), 404);
    await expectApiError(
      'inviteToSite',
      reader.api.orgs.inviteToSite(f.orgId, f.siteId, { role: Role.Admin, users: [reader.user.id] }),
      403,
    );

    await f.api.orgs.inviteToSite(f.orgId, f.siteId, { role: Role.Create, users: [reader.user.id, guest.user.id] });
    const changed = await expectConforms(
      'updateSiteById',
      reader.api.orgs.updateSiteById(f.orgId, f.siteId, { title: 'Renamed by a site editor' }),
      200,
    );
    expect(changed.data.permissions).toMatchObject({ create: true, admin: false });
    const seen = await expectConforms('getSiteById', guest.api.orgs.getSiteById(f.orgId, f.siteId), 200);
    expect(seen.data.title).toBe('Renamed by a site editor');
    // `create` on the site is not admin of it: publishing, share links, deleting, its permissions: 403.
    await expectApiError('unpublishSite', reader.api.orgs.unpublishSite(f.orgId, f.siteId), 403);
    await expectApiError('deleteSiteById', reader.api.orgs.deleteSiteById(f.orgId, f.siteId), 403);
    await expectApiError('listSiteShareLinks', reader.api.orgs.listSiteShareLinks(f.orgId, f.siteId), 403);
    await expectApiError(
      'inviteToSite',
      reader.api.orgs.inviteToSite(f.orgId, f.siteId, { role: Role.Admin, users: [reader.user.id] }),
      403,
    );
    // Nor another site of the organization, nor creating sites.
    await expectApiError(
      'updateSiteById',
      reader.api.orgs.updateSiteById(f.orgId, other.data.id, { title: 'No' }),
      403,
    );
    await expectApiError('getSiteById', guest.api.orgs.getSiteById(f.orgId, other.data.id), 404);
    await expectApiError('createSite', reader.api.orgs.createSite(f.orgId, { title: 'New' }), 403);
    // The list shows the granted site's flags at the granted role.
    const listed = await reader.api.orgs.listSites(f.orgId);
    const flags = new Map(listed.data.items.map((s) => [s.id, s.permissions.create]));
    expect(flags.get(f.siteId)).toBe(true);
    expect(flags.get(other.data.id)).toBe(false);

    // Admin on the site: manage its permissions, publish it; still nothing on the other site.
    await f.api.orgs.updateUserPermissionInSite(f.orgId, f.siteId, reader.user.id, { role: Role.Admin });
    await expectConforms(
      'listUserPermissionsInSite',
      reader.api.orgs.listUserPermissionsInSite(f.orgId, f.siteId),
      200,
    );
    await expectConforms('unpublishSite', reader.api.orgs.unpublishSite(f.orgId, f.siteId), 200);
    await expectApiError('unpublishSite', reader.api.orgs.unpublishSite(f.orgId, other.data.id), 403);

    // Removed: back to what the organization role gives, at once.
    await f.api.orgs.removeUserFromSite(f.orgId, f.siteId, reader.user.id);
    await f.api.orgs.removeUserFromSite(f.orgId, f.siteId, guest.user.id);
    await expectApiError('updateSiteById', reader.api.orgs.updateSiteById(f.orgId, f.siteId, { title: 'Again' }), 403);
    await expectApiError('getSiteById', guest.api.orgs.getSiteById(f.orgId, f.siteId), 404);
  });

  it("a team's grant counts for its members; Member.sites counts granted sites", async () => {
    const f = await fixture();
    const guest = await newMember(f.orgId, null);
    const before = await f.api.orgs.getMemberInOrganizationById(f.orgId, guest.user.id);
    expect(before.data.sites).toBe(0);
    const team = await f.api.orgs.createOrganizationTeam(f.orgId, { title: 'Docs team', members: [guest.user.id] });
    await f.api.orgs.inviteToSite(f.orgId, f.siteId, { role: Role.Create, teams: [team.data.id] });
    await expectConforms(
      'updateSiteById',
      guest.api.orgs.updateSiteById(f.orgId, f.siteId, { title: 'By the team' }),
      200,
    );
    const member = await f.api.orgs.getMemberInOrganizationById(f.orgId, guest.user.id);
    expect(member.data.sites).toBe(1);
    const list = await f.api.orgs.listMembersInOrganizationById(f.orgId);
    expect(list.data.items.find((m) => m.user.id === guest.user.id)?.sites).toBe(1);
    await f.api.orgs.removeTeamFromSite(f.orgId, f.siteId, team.data.id);
    await expectApiError('getSiteById', guest.api.orgs.getSiteById(f.orgId, f.siteId), 404);
    expect((await f.api.orgs.getMemberInOrganizationById(f.orgId, guest.user.id)).data.sites).toBe(0);
  });

  it("another organization's admin gets a 404; the events are recorded", async () => {
    const f = await fixture();
    const outsider = await newOrg();
    await expectApiError(
      'listUserPermissionsInSite',
      outsider.api.orgs.listUserPermissionsInSite(f.orgId, f.siteId),
      404,
    );
    await expectApiError(
      'inviteToSite',
      outsider.api.orgs.inviteToSite(f.orgId, f.siteId, { role: Role.Admin, users: [outsider.admin.user.id] }),
      404,
    );
    await expectApiError('removeUserFromSite', outsider.api.orgs.removeUserFromSite(f.orgId, f.siteId, 'x'), 404);
    const member = await newMember(f.orgId, 'read');
    await f.api.orgs.inviteToSite(f.orgId, f.siteId, { role: Role.Read, users: [member.user.id] });
    const events = await contractServer()
      .harness.db.selectFrom('events')
      .select(['type'])
      .where('organization_id', '=', f.orgId)
      .where('type', '=', 'site.permissions.updated')
      .execute();
    expect(events.length).toBe(1);
  });

  it('covers every operation', () => {
    expectOperationsCovered(PERMISSION_OPERATIONS);
  });
});
