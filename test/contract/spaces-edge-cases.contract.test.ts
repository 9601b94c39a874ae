/**
 * Contract test of the errors and official edge cases of spaces, collections and their permissions:
 * every operation is driven through the official `@gitbook/api` client against a listening server,
 * every request body is first checked against the official request schema, and every response body
 * (error bodies included) is validated against the schema GitBook's own OpenAPI document gives that
 * operation. The operations themselves are checked as validated by spaces.contract.test.ts and
 * spaces-permissions.contract.test.ts; the shared set-up is in test/helpers/spaces-contract.ts.
 */
import { describe, expect, it } from 'vitest';
import { collection, documentedStatuses, KINDS, opsOf, permissionFixture, space } from '../helpers/spaces-contract.js';
import { official } from './official.js';
import { contractServer, newMember, newOrg, useContractServer } from './server.js';
import { allowed, expectApiError, expectConforms } from './validate.js';

useContractServer();

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
      const outsider = await contractServer().harness.user();
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
