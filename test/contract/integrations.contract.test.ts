/**
 * Contract test of integrations: every operation driven through the official `@gitbook/api` client,
 * every response body validated against the schema of GitBook's own OpenAPI document.
 *
 * One deliberate difference: the first publish of a name answers 201 (with Location), where the
 * official document lists only 200 for publishIntegration; that body is checked against the
 * documented 200 schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { Client } from '../helpers/app.js';
import { official } from './official.js';
import { type ContractServer, startContractServer } from './server.js';
import {
  assertRequestConforms,
  assertResponseConforms,
  expectApiError,
  expectConforms,
  expectOperationsCovered,
  findOperation,
} from './validate.js';

const INTEGRATION_OPERATIONS = [
  'listIntegrations',
  'getIntegrationByName',
  'publishIntegration',
  'installIntegration',
  'installIntegrationOnSpace',
  'listSpaceIntegrations',
  'listSpaceIntegrationsBlocks',
] as const;

let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer();
});
afterAll(async () => server?.close());

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]).toString('base64');

async function newOrg() {
  const { id, admin } = await server.harness.org();
  return { id, admin, api: server.client(admin.token), http: new Client(server.harness.app, admin.token) };
}

function fullBody(organization: string) {
  return {
    title: 'Contract integration',
    description: 'Checks every field',
    summary: '## Summary',
    icon: PNG,
    previewImages: [PNG],
    visibility: official.IntegrationVisibility.Public,
    target: official.IntegrationTarget.All,
    scopes: [official.IntegrationScope.SpaceContentRead, official.IntegrationScope.SiteViewsRead],
    categories: [official.IntegrationCategory.Analytics],
    blocks: [
      {
        id: 'embed',
        title: 'Embed',
        description: 'An embed',
        urlUnfurl: ['https://contract.example/watch'],
        markdown: { codeblock: 'embed', body: 'url' },
      },
    ],
    contentSources: [{ id: 'src', title: 'Source', configuration: { componentId: 'configure' } }],
    externalLinks: [{ url: 'https://contract.example', label: 'Home' }],
    configurations: {
      account: {
        properties: { token: { type: 'string' as const, title: 'Token', description: 'API token' } },
        required: ['token'],
      },
    },
    script: 'export default {}',
    organization,
    secrets: { KEY: 'value' },
    contentSecurityPolicy: { 'script-src': "'self'" },
  };
}

describe('the official document', () => {
  it('has every operation of this area', () => {
    for (const id of INTEGRATION_OPERATIONS) expect(findOperation(id).operationId).toBe(id);
  });
});

describe('integrations', () => {
  it('publishIntegration (first and next version), getIntegrationByName, listIntegrations', async () => {
    const { id, api } = await newOrg();
    const name = `contract-${newId(8).toLowerCase()}`;
    const body = fullBody(id);
    assertRequestConforms('publishIntegration', body);
    const first = await api.integrations.publishIntegration(name, body);
    expect(first.status).toBe(201);
    assertResponseConforms('publishIntegration', 200, first.data);
    const next = await expectConforms(
      'publishIntegration',
      api.integrations.publishIntegration(name, { ...body, contentSecurityPolicy: "default-src 'self'" }),
      200,
    );
    expect(next.data.version).toBe(2);

    const got = await expectConforms('getIntegrationByName', api.integrations.getIntegrationByName(name), 200);
    expect(got.data.name).toBe(name);
    await expectApiError('getIntegrationByName', api.integrations.getIntegrationByName(`${name}-missing`), 404);

    const listed = await expectConforms(
      'listIntegrations',
      api.integrations.listIntegrations({
        owner: id,
        search: 'contract',
        category: official.IntegrationCategory.Analytics,
        blockDomain: 'contract.example',
        blocks: true,
        contentSources: true,
        scope: official.IntegrationScope.SiteViewsRead,
        target: official.IntegrationTarget.Space,
        limit: 10,
      }),
      200,
    );
    expect(listed.data.items.map((i) => i.name)).toEqual([name]);
    await api.integrations.publishIntegration(`${name}-2`, {
      ...body,
      visibility: official.IntegrationVisibility.Private,
    });
    const paged = await expectConforms(
      'listIntegrations',
      api.integrations.listIntegrations({ owner: id, limit: 1 }),
      200,
    );
    expect(paged.data.next?.page).toBeTruthy();
    const last = await expectConforms(
      'listIntegrations',
      api.integrations.listIntegrations({ owner: id, limit: 1, page: paged.data.next?.page }),
      200,
    );
    expect(last.data.items.map((i) => i.name)).toEqual([`${name}-2`]);

    // Another organization: the private one does not exist for it.
    const other = await newOrg();
    await expectApiError('getIntegrationByName', other.api.integrations.getIntegrationByName(`${name}-2`), 404);
    await expectApiError(
      'publishIntegration',
      other.api.integrations.publishIntegration(`${name}-2`, fullBody(other.id)),
      404,
    );
    await expectApiError(
      'publishIntegration',
      other.api.integrations.publishIntegration(`${name}-x`, fullBody(id)),
      404,
    );
  });

  it('installIntegration, installIntegrationOnSpace, listSpaceIntegrations, listSpaceIntegrationsBlocks', async () => {
    const { id, api, http } = await newOrg();
    const name = `contract-${newId(8).toLowerCase()}`;
    await api.integrations.publishIntegration(name, fullBody(id));
    const space = (await http.post(`/v1/orgs/${id}/spaces`, { title: 'Space' })).body;

    assertRequestConforms('installIntegration', { organization: id });
    const installation = await expectConforms(
      'installIntegration',
      api.integrations.installIntegration(name, { organization: id }),
      201,
    );
    await expectApiError(
      'installIntegration',
      api.integrations.installIntegration(`${name}-none`, { organization: id }),
      404,
    );

    const onSpace = await expectConforms(
      'installIntegrationOnSpace',
      api.integrations.installIntegrationOnSpace(name, installation.data.id, { space: space.id }),
      201,
    );
    expect(onSpace.data.space).toBe(space.id);
    const extended = await expectConforms(
      'installIntegrationOnSpace',
      api.integrations.installIntegrationOnSpace(name, installation.data.id, { space: space.id }, { extended: true }),
      201,
    );
    expect(extended.data.space).toMatchObject({ id: space.id });
    await expectApiError(
      'installIntegrationOnSpace',
      api.integrations.installIntegrationOnSpace(name, 'missing', { space: space.id }),
      404,
    );

    const listed = await expectConforms('listSpaceIntegrations', api.spaces.listSpaceIntegrations(space.id), 200);
    expect(listed.data.items.map((i) => i.name)).toEqual([name]);
    const searched = await expectConforms(
      'listSpaceIntegrations',
      api.spaces.listSpaceIntegrations(space.id, { search: 'nothing-like-it' }),
      200,
    );
    expect(searched.data.count).toBe(0);
    const blocks = await expectConforms(
      'listSpaceIntegrationsBlocks',
      api.spaces.listSpaceIntegrationsBlocks(space.id),
      200,
    );
    expect(blocks.data.map((b) => b.name)).toEqual([name]);
    const outsider = server.client((await server.harness.user()).token);
    await expectApiError('listSpaceIntegrationsBlocks', outsider.spaces.listSpaceIntegrationsBlocks(space.id), 404);
  });

  it('covers every operation', () => {
    expectOperationsCovered(INTEGRATION_OPERATIONS);
  });
});
