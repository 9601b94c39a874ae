/**
 * Request bodies GitBook's official document allows for the foundation operations must be accepted
 * too: each body is first checked against the official request schema (so the test cannot send
 * something GitBook itself would reject), then sent through the official client, and the response
 * is validated like in `foundation.contract.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { official } from './official.js';
import { type ContractServer, newOrg, startContractServer, unique } from './server.js';
import { assertRequestConforms, type ClientResponse, expectConforms } from './validate.js';

let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer();
});
afterAll(async () => server?.close());

describe('request bodies the official document allows', () => {
  it('createOrganization with emailDomains', async () => {
    const { api } = await newOrg(server);
    const body = { title: `Domains ${unique()}`, emailDomains: ['example.test'] };
    assertRequestConforms('createOrganization', body);
    const res = await expectConforms('createOrganization', api.orgs.createOrganization(body), 201);
    expect(res.data.emailDomains).toEqual(['example.test']);
  });

  it('createOrganization with onboardingPreferences', async () => {
    const { api } = await newOrg(server);
    const body = {
      title: `Onboarded ${unique()}`,
      onboardingPreferences: { source: null, audience: null, interests: [] },
    };
    assertRequestConforms('createOrganization', body);
    await expectConforms('createOrganization', api.orgs.createOrganization(body), 201);
  });

  it('updateOrganizationById with mergeRules', async () => {
    const { id, api } = await newOrg(server);
    const body = { mergeRules: { type: 'none' as const } };
    assertRequestConforms('updateOrganizationById', body);
    const res = await expectConforms('updateOrganizationById', api.orgs.updateOrganizationById(id, body), 200);
    expect(res.data.mergeRules).toEqual({ type: 'none' });
  });

  it('the other bodies the foundation tests send are official, and the server answers them officially', async () => {
    const { id, api } = await newOrg(server);
    /** Checks `body` against the official request schema, sends it, and validates what the server answered. */
    const send = <B, R extends ClientResponse>(
      operationId: string,
      body: B,
      call: (body: B) => Promise<R>,
      status: number,
    ) => {
      assertRequestConforms(operationId, body);
      return expectConforms(operationId, call(body), status);
    };
    const hostname = `h${unique()}`;
    const renamed = await send(
      'updateOrganizationById',
      {
        title: 'Renamed organization',
        emailDomains: ['Example.test'],
        hostname,
        defaultRole: official.MemberRole.Edit,
        defaultContent: { type: 'site' as const, site: 'site_main' },
        logo: 'https://example.test/logo.png',
        sso: true,
        ai: false,
        inviteLinks: true,
      },
      (body) => api.orgs.updateOrganizationById(id, body),
      200,
    );
    expect(renamed.data).toMatchObject({ title: 'Renamed organization', hostname, defaultRole: 'edit' });
    const cleared = await send(
      'updateOrganizationById',
      { defaultRole: null, defaultContent: null, logo: null },
      (body) => api.orgs.updateOrganizationById(id, body),
      200,
    );
    expect(cleared.data.defaultRole).toBeNull();
    const b = `b-${unique()}@example.test`;
    const invited = await send(
      'inviteUsersToOrganization',
      {
        emails: [`a-${unique()}@example.test`, { email: b, role: null }],
        role: official.MemberRole.Comment,
        sso: true,
      },
      (body) => api.orgs.inviteUsersToOrganization(id, body),
      200,
    );
    expect(invited.data.invited).toBe(2);
    const member = await server.harness.member(id, 'read');
    const other = await server.harness.member(id, 'edit');
    await send(
      'updateMemberInOrganizationById',
      { role: null },
      (body) => api.orgs.updateMemberInOrganizationById(id, member.user.id, body),
      200,
    );
    const team = await send(
      'createOrganizationTeam',
      { title: 'Writers', members: [other.user.id, b] },
      (body) => api.orgs.createOrganizationTeam(id, body),
      201,
    );
    const teamId = team.data.id;
    await send(
      'updateTeamInOrganizationById',
      { title: 'After' },
      (body) => api.orgs.updateTeamInOrganizationById(id, teamId, body),
      200,
    );
    await send(
      'updateMembersInOrganizationTeam',
      { add: [b], remove: [other.user.id], memberships: {} },
      (body) => api.orgs.updateMembersInOrganizationTeam(id, teamId, body),
      204,
    );
    await send(
      'addMemberToOrganizationTeamById',
      {},
      (body) => api.orgs.addMemberToOrganizationTeamById(id, teamId, other.user.id, body),
      204,
    );
    expect(() => assertRequestConforms('createOrganizationTeam', { members: [] })).toThrow(/title/);
  });
});
