/**
 * Contract test of the site operations of issue #32: external links, the structure sort, the bulk
 * redirects, the adaptive schema and its template conditions, and the search prewarm. The installed
 * `@gitbook/api` client has no methods for them yet, so each is sent through the client's own
 * transport (`api.request`, what its generated methods call) at the official method and path;
 * every request body is checked against the official document first, and every answer validated
 * against it. The shared set-up is in test/helpers/sites-contract.ts.
 */
import { describe, expect, it } from 'vitest';
import { type Fixture, fixture } from '../helpers/sites-contract.js';
import { useContractServer } from './server.js';
import { allowed, expectApiError, expectConforms, expectOperationsCovered } from './validate.js';

useContractServer();

/** The operations this file validates and checks that it did. */
const NAVIGATION_OPERATIONS = [
  'addExternalLinkToSite',
  'updateSiteExternalLinkById',
  'deleteSiteExternalLinkById',
  'sortSiteStructure',
  'bulkUpsertSiteRedirects',
  'getSiteAdaptiveSchema',
  'updateSiteAdaptiveSchema',
  'listSiteAdaptiveTemplateConditions',
  'prewarmSiteSearch',
] as const;

/**
 * `operationId` through the client's transport: `body` checked against the official request schema
 * (when given), JSON parsed only where the operation answers JSON.
 */
function call(
  f: Fixture,
  operationId: string,
  method: string,
  path: string,
  body?: unknown,
  options: { json?: boolean; headers?: Record<string, string> } = {},
) {
  return f.api.request({
    path: `/orgs/${f.orgId}/sites/${f.siteId}${path}`,
    method,
    secure: true,
    ...(body !== undefined ? { body: allowed(operationId, body), type: 'application/json' as never } : {}),
    ...(options.json !== false ? { format: 'json' as const } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

/** The fixture's site with a second section (it then has sections, which external links need). */
async function sectioned(): Promise<Fixture & { sections: string[] }> {
  const f = await fixture();
  await f.api.orgs.addSectionToSite(f.orgId, f.siteId, { spaceId: f.spaces[2] as string, title: 'Changelog' });
  const sections = (await f.api.orgs.listSiteSections(f.orgId, f.siteId)).data.items.map((s) => s.id);
  return { ...f, sections };
}

describe('site external links and the structure sort', () => {
  it('addExternalLinkToSite, updateSiteExternalLinkById, sortSiteStructure, deleteSiteExternalLinkById', async () => {
    const f = await sectioned();
    const group = await f.api.orgs.addSectionGroupToSite(f.orgId, f.siteId, { title: 'More' });
    const added = await expectConforms(
      'addExternalLinkToSite',
      call(f, 'addExternalLinkToSite', 'POST', '/external-links', {
        title: 'Status',
        url: 'https://status.acme.test/',
        description: 'Uptime',
        icon: 'signal',
        localizedTitle: { fr: 'État' },
        parent: group.data.id,
        draft: false,
        condition: null,
      }),
      201,
    );
    expect(added.data).toMatchObject({ object: 'site-external-link', sectionGroup: group.data.id });
    const id = added.data.id as string;
    // The structure shows it in its group's children, validated against the official SiteStructure.
    const structure = await expectConforms('getSiteStructure', f.api.orgs.getSiteStructure(f.orgId, f.siteId), 200);
    expect(JSON.stringify(structure.data)).toContain(id);

    const updated = await expectConforms(
      'updateSiteExternalLinkById',
      call(f, 'updateSiteExternalLinkById', 'PATCH', `/external-links/${id}`, {
        parent: null,
        title: 'Status page',
        localizedTitle: null,
        condition: 'visitor.claims.beta === true',
      }),
      200,
    );
    expect(updated.data).toMatchObject({ title: 'Status page', condition: 'visitor.claims.beta === true' });
    await expectConforms(
      'updateSiteExternalLinkById',
      call(
        f,
        'updateSiteExternalLinkById',
        'PATCH',
        `/external-links/${id}`,
        { draft: true },
        {
          json: false,
          headers: { Prefer: 'return=minimal' },
        },
      ),
      204,
    );
    await expectApiError(
      'updateSiteExternalLinkById',
      call(f, 'updateSiteExternalLinkById', 'PATCH', '/external-links/nope', { title: 'Xy' }),
      404,
    );
    await expectApiError(
      'addExternalLinkToSite',
      call(f, 'addExternalLinkToSite', 'POST', '/external-links', {
        title: 'Bad',
        url: 'https://a.test/',
        parent: 'nope',
      }),
      400,
    );

    const sorted = await expectConforms(
      'sortSiteStructure',
      call(f, 'sortSiteStructure', 'PATCH', '/structure/sort', {
        item: { type: 'site-external-link', id },
        position: { before: { type: 'site-section', id: f.sections[0] as string } },
      }),
      200,
    );
    expect(sorted.data).toMatchObject({ object: 'site-external-link', id });
    const group2 = await expectConforms(
      'sortSiteStructure',
      call(f, 'sortSiteStructure', 'PATCH', '/structure/sort', {
        item: { type: 'site-section-group', id: group.data.id },
        position: {},
      }),
      200,
    );
    expect(group2.data.object).toBe('site-section-group');
    await expectConforms(
      'sortSiteStructure',
      call(
        f,
        'sortSiteStructure',
        'PATCH',
        '/structure/sort',
        { item: { type: 'site-section', id: f.sections[1] as string }, position: {} },
        { json: false, headers: { Prefer: 'return=minimal' } },
      ),
      204,
    );
    await expectApiError(
      'sortSiteStructure',
      call(f, 'sortSiteStructure', 'PATCH', '/structure/sort', {
        item: { type: 'site-section', id: f.sections[0] as string },
        position: { after: { type: 'site-space', id: 'nope' } },
      }),
      400,
    );
    await expectApiError(
      'sortSiteStructure',
      call(f, 'sortSiteStructure', 'PATCH', '/structure/sort', {
        item: { type: 'site-space', id: 'nope' },
        position: {},
      }),
      404,
    );
    const top = (await f.api.orgs.getSiteStructure(f.orgId, f.siteId)).data.structure.map((i) => i.object);
    expect(top).toEqual(['site-external-link', 'site-section', 'site-section-group', 'site-section']);

    await expectConforms(
      'deleteSiteExternalLinkById',
      call(f, 'deleteSiteExternalLinkById', 'DELETE', `/external-links/${id}`, undefined, { json: false }),
      205,
    );
    await expectConforms(
      'deleteSiteExternalLinkById',
      call(f, 'deleteSiteExternalLinkById', 'DELETE', `/external-links/${id}`, undefined, { json: false }),
      204,
    );
  });
});

describe('bulk redirects, adaptive schema, search prewarm', () => {
  it('bulkUpsertSiteRedirects', async () => {
    const f = await fixture();
    const first = await expectConforms(
      'bulkUpsertSiteRedirects',
      call(f, 'bulkUpsertSiteRedirects', 'PUT', '/redirects', {
        redirects: [
          { source: '/old', destination: { kind: 'external', url: 'https://a.test/' } },
          { source: '/older', intent: 'live', destination: { kind: 'external', url: 'https://b.test/' } },
        ],
      }),
      200,
    );
    expect(first.data.results.map((r: { status: string }) => r.status)).toEqual(['created', 'created']);
    const second = await expectConforms(
      'bulkUpsertSiteRedirects',
      call(f, 'bulkUpsertSiteRedirects', 'PUT', '/redirects', {
        redirects: [
          { source: '/old', destination: { kind: 'external', url: 'https://c.test/' } },
          { source: '/older', destination: null },
        ],
      }),
      200,
    );
    expect(second.data.results.map((r: { status: string }) => r.status)).toEqual(['updated', 'deleted']);
    await expectApiError(
      'bulkUpsertSiteRedirects',
      call(f, 'bulkUpsertSiteRedirects', 'PUT', '/redirects', {
        redirects: [{ source: '/gone', destination: null }],
      }),
      400,
    );
  });

  it('updateSiteAdaptiveSchema, getSiteAdaptiveSchema, listSiteAdaptiveTemplateConditions', async () => {
    const f = await fixture();
    await expectApiError('getSiteAdaptiveSchema', call(f, 'getSiteAdaptiveSchema', 'GET', '/adaptive-schema'), 404);
    const jsonSchema = {
      type: 'object',
      properties: {
        plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
        unsigned: {
          type: 'object',
          description: 'Unsigned claims of the site visitor.',
          properties: { beta: { type: 'boolean', description: 'Beta' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    };
    const put = await expectConforms(
      'updateSiteAdaptiveSchema',
      call(f, 'updateSiteAdaptiveSchema', 'PUT', '/adaptive-schema', { jsonSchema }),
      200,
    );
    expect(put.data.jsonSchema).toEqual(jsonSchema);
    const got = await expectConforms(
      'getSiteAdaptiveSchema',
      call(f, 'getSiteAdaptiveSchema', 'GET', '/adaptive-schema'),
      200,
    );
    expect(got.data).toEqual(put.data);
    const templates = await expectConforms(
      'listSiteAdaptiveTemplateConditions',
      call(f, 'listSiteAdaptiveTemplateConditions', 'GET', '/adaptive-schema/template-conditions'),
      200,
    );
    expect(templates.data.items.map((t: { condition: string }) => t.condition)).toEqual([
      'visitor.claims.plan === "free"',
      'visitor.claims.plan === "pro"',
      'visitor.claims.unsigned.beta === true',
      'visitor.claims.unsigned.beta !== true',
    ]);
    await expectApiError(
      'updateSiteAdaptiveSchema',
      call(f, 'updateSiteAdaptiveSchema', 'PUT', '/adaptive-schema', {
        // Allowed by the official schema, past this server's limit of 200 claims.
        jsonSchema: {
          type: 'object',
          properties: Object.fromEntries(
            Array.from({ length: 201 }, (_, i) => [`c${i}`, { type: 'boolean', description: 'x' }]),
          ),
          additionalProperties: false,
        },
      }),
      400,
    );
  });

  it('prewarmSiteSearch', async () => {
    const f = await fixture();
    await expectConforms(
      'prewarmSiteSearch',
      call(f, 'prewarmSiteSearch', 'POST', '/search/prewarm', undefined, { json: false }),
      204,
    );
  });

  it('validated every operation of this file (NAVIGATION_OPERATIONS)', () => {
    expectOperationsCovered(NAVIGATION_OPERATIONS);
  });
});
