/**
 * Request bodies GitBook's official document allows for the foundation operations must be accepted
 * too: each body is first checked against the official request schema (so the test cannot send
 * something GitBook itself would reject), then sent through the official client, and the response
 * is validated like in `foundation.contract.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractServer, startContractServer } from './server.js';
import { assertRequestConforms, expectConforms } from './validate.js';

let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer();
});
afterAll(async () => server?.close());

async function newOrg() {
  const { id, admin } = await server.harness.org();
  return { id, admin, api: server.client(admin.token) };
}

const unique = () => Math.random().toString(36).slice(2, 10);

describe('request bodies the official document allows', () => {
  it('createOrganization with emailDomains', async () => {
    const { api } = await newOrg();
    const body = { title: `Domains ${unique()}`, emailDomains: ['example.test'] };
    assertRequestConforms('createOrganization', body);
    const res = await expectConforms('createOrganization', api.orgs.createOrganization(body), 201);
    expect(res.data.emailDomains).toEqual(['example.test']);
  });

  it('createOrganization with onboardingPreferences', async () => {
    const { api } = await newOrg();
    const body = {
      title: `Onboarded ${unique()}`,
      onboardingPreferences: { source: null, audience: null, interests: [] },
    };
    assertRequestConforms('createOrganization', body);
    await expectConforms('createOrganization', api.orgs.createOrganization(body), 201);
  });

  it('updateOrganizationById with mergeRules', async () => {
    const { id, api } = await newOrg();
    const body = { mergeRules: { type: 'none' as const } };
    assertRequestConforms('updateOrganizationById', body);
    const res = await expectConforms('updateOrganizationById', api.orgs.updateOrganizationById(id, body), 200);
    expect(res.data.mergeRules).toEqual({ type: 'none' });
  });

  it('every other body the foundation tests send is official', () => {
    assertRequestConforms('updateOrganizationById', {
      title: 'Renamed organization',
      emailDomains: ['Example.test'],
      hostname: 'hostname1',
      defaultRole: 'edit',
      defaultContent: { type: 'site', site: 'site_main' },
      logo: 'https://example.test/logo.png',
      sso: true,
      ai: false,
      inviteLinks: true,
    });
    assertRequestConforms('updateOrganizationById', { defaultRole: null, defaultContent: null, logo: null });
    assertRequestConforms('inviteUsersToOrganization', {
      emails: ['a@example.test', { email: 'b@example.test', role: null }],
      role: 'comment',
      sso: true,
    });
    assertRequestConforms('updateMemberInOrganizationById', { role: null });
    assertRequestConforms('createOrganizationTeam', { title: 'Writers', members: ['user1', 'b@example.test'] });
    assertRequestConforms('updateTeamInOrganizationById', { title: 'After' });
    assertRequestConforms('updateMembersInOrganizationTeam', {
      add: ['b@example.test'],
      remove: ['user2'],
      memberships: { user1: { role: 'owner' } },
    });
    assertRequestConforms('addMemberToOrganizationTeamById', {});
    expect(() => assertRequestConforms('createOrganizationTeam', { members: [] })).toThrow(/title/);
  });
});
