/**
 * Contract test of the foundation areas' user and organizations, and of the errors of all the
 * foundation areas (user, organizations, members, teams): every operation is driven through the
 * official `@gitbook/api` client against a listening server, and every response body is validated
 * against the schema GitBook's own OpenAPI document gives that operation. The members and teams are
 * in foundation-members.contract.test.ts; the shared set-up is in test/helpers/foundation-contract.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  FOUNDATION_OPERATIONS,
  MEMBER_AND_TEAM_OPERATIONS,
  USER_AND_ORGANIZATION_OPERATIONS,
} from '../helpers/foundation-contract.js';
import { official } from './official.js';
import { contractServer, newOrg, unique, useContractServer } from './server.js';
import { expectApiError, expectConforms, expectOperationsCovered, findOperation } from './validate.js';

useContractServer();

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
    const reader = await contractServer().harness.member(id, 'read');
    const asReader = await expectConforms(
      'getOrganizationById',
      contractServer().client(reader.token).orgs.getOrganizationById(id),
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
    const guest = await contractServer().harness.member(id, null);
    await expectConforms(
      'updateOrganizationMemberLastSeenAt',
      contractServer().client(guest.token).orgs.updateOrganizationMemberLastSeenAt(id),
      200,
    );
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
      contractServer().client('bnd_not-a-token').user.getAuthenticatedUser(),
      401,
    );
    expect(error.code).toBe(401);
  });

  it('403 when a reader updates the organization', async () => {
    const { id } = await newOrg();
    const reader = await contractServer().harness.member(id, 'read');
    await expectApiError(
      'updateOrganizationById',
      contractServer().client(reader.token).orgs.updateOrganizationById(id, { title: 'Nope' }),
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

/**
 * The operations of these areas are divided between two files, each checking at its end that it
 * validated its part: this file USER_AND_ORGANIZATION_OPERATIONS, foundation-members.contract.test.ts
 * MEMBER_AND_TEAM_OPERATIONS. Together they are every operation of these areas by construction:
 * test/helpers/foundation-contract.ts defines FOUNDATION_OPERATIONS (the list this file checked before
 * it was split) as the two parts joined. The first assertion below checks that the parts together are
 * exactly the distinct operations of FOUNDATION_OPERATIONS, none in both parts.
 */
describe('coverage', () => {
  it('validated every operation of these areas', () => {
    expect([...USER_AND_ORGANIZATION_OPERATIONS, ...MEMBER_AND_TEAM_OPERATIONS].sort()).toEqual(
      [...new Set(FOUNDATION_OPERATIONS)].sort(),
    );
    expectOperationsCovered(USER_AND_ORGANIZATION_OPERATIONS);
  });
});
