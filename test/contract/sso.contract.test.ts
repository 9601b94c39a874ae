/**
 * Contract test of the official `sso` operations: an organization's SAML providers and its sign-in
 * choices, driven through the official `@gitbook/api` client against a listening server, every
 * answer validated against the official document. Who may call them (admins; 403 for other members,
 * 404 for outsiders), bad input, and the events each change records are checked here too.
 */
import { describe, expect, it } from 'vitest';
import { auditEvents, recorded } from '../helpers/audit.js';
import { selfSignedKeyPair } from '../helpers/certificate.js';
import { official } from './official.js';
import { contractServer, newMember, newOrg, newOutsider, unique, useContractServer } from './server.js';
import { expectApiError, expectConforms, expectOperationsCovered } from './validate.js';

useContractServer();

const SSO_OPERATIONS = [
  'listSAMLProvidersInOrganizationById',
  'createOrganizationSAMLProvider',
  'getOrganizationSAMLProviderById',
  'updateOrganizationSAMLProvider',
  'deleteOrganizationSAMLProvider',
  'listSSOProviderLoginsInOrganization',
] as const;

const keys = selfSignedKeyPair('Contract IdP');
const complete = () => ({
  label: `IdP ${unique()}`,
  entityID: `https://idp.example.test/${unique()}`,
  ssoURL: 'https://idp.example.test/sso',
  certificate: keys.certificate,
});

describe('SAML providers', () => {
  it('creates, reads, lists, updates and deletes a provider', async () => {
    const org = await newOrg();
    const team = await org.admin.client.put(`/v1/orgs/${org.id}/teams`, { title: 'Engineers' });
    const body = { ...complete(), defaultRole: official.MemberRole.Edit, defaultTeam: team.body.id };
    const created = await expectConforms(
      'createOrganizationSAMLProvider',
      org.api.orgs.createOrganizationSamlProvider(org.id, body),
      201,
    );
    const provider = created.data;
    expect(provider).toMatchObject({
      object: 'saml-provider',
      label: body.label,
      entityID: body.entityID,
      ssoURL: body.ssoURL,
      defaultRole: 'edit',
      defaultTeam: { id: team.body.id, title: 'Engineers' },
      status: 'active',
    });
    const base = `${contractServer().harness.app.config.publicUrl}/auth/saml/${provider.id}`;
    expect(provider.service).toEqual({
      acsURL: `${base}/acs`,
      startURL: `${base}/login`,
      entityID: `${base}/metadata`,
    });
    expect(created.headers.get('location')).toBe(provider.urls.location);
    expect(provider.certificate).toContain('-----BEGIN CERTIFICATE-----');

    const got = await expectConforms(
      'getOrganizationSAMLProviderById',
      org.api.orgs.getOrganizationSamlProviderById(org.id, provider.id),
      200,
    );
    expect(got.data).toEqual(provider);

    const updated = await expectConforms(
      'updateOrganizationSAMLProvider',
      org.api.orgs.updateOrganizationSamlProvider(org.id, provider.id, {
        label: 'Renamed',
        defaultRole: null,
        // The certificate as SAML metadata gives it: the base64 of the DER, without PEM armour.
        certificate: keys.certificateBase64,
      }),
      200,
    );
    expect(updated.data).toMatchObject({ label: 'Renamed', defaultRole: null, certificate: provider.certificate });

    const event = await recorded(org.admin.client, org.id, 'saml_provider.updated', {
      actor: org.admin.user.id,
      target: { type: 'saml-provider', id: provider.id },
    });
    expect(event.payload.previous).toEqual({ label: body.label, defaultRole: 'edit' });

    const deleted = await expectConforms(
      'deleteOrganizationSAMLProvider',
      org.api.orgs.deleteOrganizationSamlProvider(org.id, provider.id),
      205,
    );
    expect(deleted.status).toBe(205);
    // Deleting what is not there answers the official "did not exist".
    await expectConforms(
      'deleteOrganizationSAMLProvider',
      org.api.orgs.deleteOrganizationSamlProvider(org.id, provider.id),
      204,
    );
    await expectApiError(
      'getOrganizationSAMLProviderById',
      org.api.orgs.getOrganizationSamlProviderById(org.id, provider.id),
      404,
    );
    const actions = (await auditEvents(org.admin.client, org.id)).map((e) => e.action);
    expect(actions.filter((a) => a.startsWith('saml_provider.'))).toEqual([
      'saml_provider.deleted',
      'saml_provider.updated',
      'saml_provider.created',
    ]);
  });

  it('lists providers with paging; a provider with only a label is pending and offered nowhere', async () => {
    const org = await newOrg();
    const first = await org.api.orgs.createOrganizationSamlProvider(org.id, complete());
    const second = await org.api.orgs.createOrganizationSamlProvider(org.id, complete());
    // Only the label is required; the provider waits for the rest.
    const pending = await org.admin.client.post(`/v1/orgs/${org.id}/saml`, { label: 'Later' });
    expect(pending.status).toBe(201);
    expect(pending.body).toMatchObject({ status: 'pending', ssoURL: '', entityID: '', certificate: '' });
    // Without a defaultRole, the organization's default role.
    expect(pending.body.defaultRole).toBe('read');

    const op = 'listSAMLProvidersInOrganizationById';
    const page1 = await expectConforms(op, org.api.orgs.listSamlProvidersInOrganizationById(org.id, { limit: 1 }), 200);
    expect(page1.data.count).toBe(3);
    expect(page1.data.items.map((p) => p.id)).toEqual([first.data.id]);
    const page2 = await expectConforms(
      op,
      org.api.orgs.listSamlProvidersInOrganizationById(org.id, { limit: 1, page: page1.data.next?.page }),
      200,
    );
    expect(page2.data.items.map((p) => p.id)).toEqual([second.data.id]);
    const none = await expectConforms(op, org.api.orgs.listSamlProvidersInOrganizationById(org.id, { limit: 0 }), 200);
    expect(none.data).toMatchObject({ items: [], count: 3 });

    const logins = await expectConforms(
      'listSSOProviderLoginsInOrganization',
      org.api.orgs.listSsoProviderLoginsInOrganization(org.id),
      200,
    );
    expect(logins.data.items).toEqual([
      { id: first.data.id, label: first.data.label, startURL: first.data.service.startURL },
      { id: second.data.id, label: second.data.label, startURL: second.data.service.startURL },
    ]);
    // A sign-in page asks before anyone is signed in: no token needed.
    const anonymous = await contractServer().harness.anonymous.get(`/v1/orgs/${org.id}/sso`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual(logins.data);
    expect((await contractServer().harness.anonymous.get('/v1/orgs/nope/sso')).status).toBe(404);
  });

  it('belongs to the organization admins: 403 for other members, 404 for outsiders and other organizations', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const provider = (await org.api.orgs.createOrganizationSamlProvider(org.id, complete())).data;
    const editor = await newMember(org.id, 'edit');
    const outsider = await newOutsider();
    const guest = await newMember(org.id, null);

    await expectApiError(
      'listSAMLProvidersInOrganizationById',
      editor.api.orgs.listSamlProvidersInOrganizationById(org.id),
      403,
    );
    await expectApiError(
      'createOrganizationSAMLProvider',
      editor.api.orgs.createOrganizationSamlProvider(org.id, complete()),
      403,
    );
    await expectApiError(
      'getOrganizationSAMLProviderById',
      editor.api.orgs.getOrganizationSamlProviderById(org.id, provider.id),
      403,
    );
    await expectApiError(
      'updateOrganizationSAMLProvider',
      editor.api.orgs.updateOrganizationSamlProvider(org.id, provider.id, { label: 'Mine' }),
      403,
    );
    await expectApiError(
      'deleteOrganizationSAMLProvider',
      editor.api.orgs.deleteOrganizationSamlProvider(org.id, provider.id),
      403,
    );
    for (const stranger of [outsider, guest]) {
      await expectApiError(
        'listSAMLProvidersInOrganizationById',
        stranger.api.orgs.listSamlProvidersInOrganizationById(org.id),
        404,
      );
      await expectApiError(
        'getOrganizationSAMLProviderById',
        stranger.api.orgs.getOrganizationSamlProviderById(org.id, provider.id),
        404,
      );
      await expectApiError(
        'deleteOrganizationSAMLProvider',
        stranger.api.orgs.deleteOrganizationSamlProvider(org.id, provider.id),
        404,
      );
    }
    // Another organization's admin does not reach it through their own organization.
    await expectApiError(
      'getOrganizationSAMLProviderById',
      other.api.orgs.getOrganizationSamlProviderById(other.id, provider.id),
      404,
    );
    await expectApiError(
      'updateOrganizationSAMLProvider',
      other.api.orgs.updateOrganizationSamlProvider(other.id, provider.id, { label: 'Mine' }),
      404,
    );
    await expectConforms(
      'deleteOrganizationSAMLProvider',
      other.api.orgs.deleteOrganizationSamlProvider(other.id, provider.id),
      204,
    );
    const still = await org.api.orgs.getOrganizationSamlProviderById(org.id, provider.id);
    expect(still.data.label).toBe(provider.label);
  });

  it('refuses bad input with 400', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const foreignTeam = await other.admin.client.put(`/v1/orgs/${other.id}/teams`, { title: 'Theirs' });
    const c = org.admin.client;
    const url = `/v1/orgs/${org.id}/saml`;
    const bad = [
      {},
      { label: '' },
      { label: 'x'.repeat(31) },
      { label: '   ' },
      { label: 'ok', ssoURL: 'not a url' },
      { label: 'ok', ssoURL: 'javascript:alert(1)' },
      { label: 'ok', entityID: 'x'.repeat(1025) },
      { label: 'ok', certificate: 'not a certificate' },
      { label: 'ok', certificate: 'x'.repeat(10_001) },
      { label: 'ok', certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' },
      { label: 'ok', defaultRole: 'owner' },
      { label: 'ok', defaultTeam: foreignTeam.body.id },
      { label: 'ok', extra: true },
    ];
    for (const body of bad) {
      const res = await c.post(url, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe(400);
    }
    // The edges: 30 characters of label, 1024 of entity id.
    const edge = await c.post(url, { label: 'x'.repeat(30), entityID: 'e'.repeat(1024) });
    expect(edge.status).toBe(201);
    for (const body of [
      { label: '' },
      { ssoURL: 'ftp://idp.example.test' },
      { certificate: 'nope' },
      { defaultRole: 1 },
    ]) {
      const res = await c.patch(`${url}/${edge.body.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await c.get(`${url}?limit=1001`)).status).toBe(400);
    expect((await c.get(`${url}?page=garbage`)).status).toBe(400);
    // A default team given as "" clears it.
    const team = await c.put(`/v1/orgs/${org.id}/teams`, { title: 'Ours' });
    const withTeam = await c.patch(`${url}/${edge.body.id}`, { defaultTeam: team.body.id });
    expect(withTeam.body.defaultTeam.id).toBe(team.body.id);
    const cleared = await c.patch(`${url}/${edge.body.id}`, { defaultTeam: '' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.defaultTeam).toBeUndefined();
  });
});

it('validates every sso operation against the official document', () => {
  expectOperationsCovered(SSO_OPERATIONS);
});
