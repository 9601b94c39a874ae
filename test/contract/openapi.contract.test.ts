/**
 * Contract test of OpenAPI specifications and their versions. The OpenAPI operations are driven
 * through the official `@gitbook/api` client against a listening server (with a job worker, so
 * sources are processed into versions, some fetched from a server this file runs on loopback); every
 * request body is first checked against the official request schema and every response body is
 * validated against the schema GitBook's own OpenAPI document gives the operation.
 *
 * The calls that must fail are in openapi-failures.contract.test.ts, translation settings in
 * translations.contract.test.ts; the set-up they share, and the deliberate difference of deletes
 * answering 204, are in test/helpers/openapi-contract.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_URL } from '../helpers/app.js';
import { fresh, petstore, serve, served, sourceUrl, startSpecSources, stopSpecSources } from '../helpers/openapi.js';
import {
  CONTRACT_WORKER,
  OPENAPI_OPERATIONS,
  officialUsers,
  processed,
  processedSpec,
  TRANSLATION_OFFICIAL_OPERATIONS,
  TRANSLATION_OWN_SHAPE_OPERATIONS,
  textSource,
} from '../helpers/openapi-contract.js';
import { type ContractServer, startContractServer } from './server.js';
import { allowed, expectApiError, expectConforms, expectOperationsCovered, findOperation } from './validate.js';

let server: ContractServer;
beforeAll(async () => {
  await startSpecSources();
  server = await startContractServer(CONTRACT_WORKER);
});
afterAll(async () => {
  await server?.close();
  await stopSpecSources();
});

const { newOrg } = officialUsers(() => server);

const specLocation = (orgId: string, slug: string) => `${PUBLIC_URL}/v1/orgs/${orgId}/openapi/${slug}`;

describe('the official document', () => {
  it('has every operation of these areas', () => {
    for (const id of [...OPENAPI_OPERATIONS, ...TRANSLATION_OFFICIAL_OPERATIONS, ...TRANSLATION_OWN_SHAPE_OPERATIONS])
      expect(findOperation(id).operationId).toBe(id);
  });
});

describe('OpenAPI specifications', () => {
  it('createOpenAPISpec from text, processed into a version: versions, latest, by id and their content', async () => {
    const org = await newOrg();
    const document = petstore('From text');
    const op = 'createOpenAPISpec';
    const created = await expectConforms(
      op,
      org.api.orgs.createOpenApiSpec(org.id, allowed(op, { slug: 'from-text', ...textSource(document) })),
      201,
    );
    const location = specLocation(org.id, 'from-text');
    expect(created.data).toMatchObject({
      object: 'openapi-spec',
      slug: 'from-text',
      processingState: 'pending',
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
      urls: { location, app: `${PUBLIC_URL}/o/${org.id}/openapi/from-text` },
    });
    expect(created.data.sourceURL).toBeUndefined();
    expect(created.data.lastVersion).toBeUndefined();
    expect((created as unknown as Response).headers.get('location')).toBe(location);

    const spec = await processed(org.api, org.id, 'from-text');
    expect(spec.id).toBe(created.data.id);
    expect(spec.lastVersion).toEqual(expect.any(String));
    expect(spec.lastProcessedAt).toEqual(expect.any(String));
    expect(spec.lastProcessErrorCode).toBeUndefined();

    const versions = await expectConforms(
      'listOpenAPISpecVersions',
      org.api.orgs.listOpenApiSpecVersions(org.id, 'from-text'),
      200,
    );
    expect(versions.data.count).toBe(1);
    expect(versions.data.items.map((v) => v.id)).toEqual([spec.lastVersion]);

    const latest = await expectConforms(
      'getLatestOpenAPISpecVersion',
      org.api.orgs.getLatestOpenApiSpecVersion(org.id, 'from-text'),
      200,
    );
    const versionLocation = `${location}/versions/${spec.lastVersion}`;
    expect(latest.data).toMatchObject({
      object: 'openapi-spec-version',
      id: spec.lastVersion,
      // A text source is readable through this API.
      url: `${versionLocation}/content`,
      urls: { location: versionLocation },
    });
    expect(versions.data.items[0]).toEqual(latest.data);

    const byId = await expectConforms(
      'getOpenAPISpecVersionById',
      org.api.orgs.getOpenApiSpecVersionById(org.id, 'from-text', spec.lastVersion!),
      200,
    );
    expect(byId.data).toEqual(latest.data);

    const content = await expectConforms(
      'getLatestOpenAPISpecVersionContent',
      org.api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'from-text'),
      200,
    );
    expect(content.data.filesystem).toEqual({ 'openapi.json': document });
    expect(content.data.urls).toEqual({ source: `${versionLocation}/content`, public: null });

    const contentById = await expectConforms(
      'getOpenAPISpecVersionContentById',
      org.api.orgs.getOpenApiSpecVersionContentById(org.id, 'from-text', spec.lastVersion!),
      200,
    );
    expect(contentById.data).toEqual(content.data);
  });

  it('createOpenAPISpec from a URL served on loopback: sourceURL, and the version points at it', async () => {
    const org = await newOrg();
    const document = petstore('From a URL');
    const sourceURL = serve(document);
    const op = 'createOpenAPISpec';
    const created = await expectConforms(
      op,
      org.api.orgs.createOpenApiSpec(org.id, allowed(op, { slug: 'from-url', source: { url: sourceURL } })),
      201,
    );
    expect(created.data).toMatchObject({ slug: 'from-url', sourceURL, processingState: 'pending' });

    const spec = await processed(org.api, org.id, 'from-url');
    expect(spec.sourceURL).toBe(sourceURL);
    expect(spec.lastProcessErrorCode).toBeUndefined();
    const latest = await expectConforms(
      'getLatestOpenAPISpecVersion',
      org.api.orgs.getLatestOpenApiSpecVersion(org.id, 'from-url'),
      200,
    );
    expect(latest.data).toMatchObject({ id: spec.lastVersion, url: sourceURL });
    const content = await expectConforms(
      'getOpenAPISpecVersionContentById',
      org.api.orgs.getOpenApiSpecVersionContentById(org.id, 'from-url', spec.lastVersion!),
      200,
    );
    expect(content.data.filesystem).toEqual({ 'openapi.json': document });
    expect(content.data.urls).toEqual({ source: sourceURL, public: null });
    const latestContent = await expectConforms(
      'getLatestOpenAPISpecVersionContent',
      org.api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'from-url'),
      200,
    );
    expect(latestContent.data).toEqual(content.data);
  });

  it('listOpenAPISpecs: empty, then paged by slug', async () => {
    const org = await newOrg();
    const empty = await expectConforms('listOpenAPISpecs', org.api.orgs.listOpenApiSpecs(org.id), 200);
    expect(empty.data).toMatchObject({ items: [], count: 0 });
    for (const slug of ['c', 'a', 'b']) {
      await org.api.orgs.createOpenApiSpec(org.id, { slug, ...textSource(petstore(slug)) });
    }
    const first = await expectConforms('listOpenAPISpecs', org.api.orgs.listOpenApiSpecs(org.id, { limit: 2 }), 200);
    expect(first.data.count).toBe(3);
    expect(first.data.items.map((s) => s.slug)).toEqual(['a', 'b']);
    expect(first.data.next?.page).toEqual(expect.any(String));
    const rest = await expectConforms(
      'listOpenAPISpecs',
      org.api.orgs.listOpenApiSpecs(org.id, { limit: 2, page: first.data.next!.page }),
      200,
    );
    expect(rest.data.items.map((s) => s.slug)).toEqual(['c']);
    expect(rest.data.next).toBeUndefined();
  });

  it('createOrUpdateOpenAPISpecBySlug creates (201, Location), then updates (200); a change makes a version', async () => {
    const org = await newOrg();
    const op = 'createOrUpdateOpenAPISpecBySlug';
    const created = await expectConforms(
      op,
      org.api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'by-put', allowed(op, textSource(petstore('v1')))),
      201,
    );
    const location = specLocation(org.id, 'by-put');
    expect(created.data).toMatchObject({ slug: 'by-put', processingState: 'pending', urls: { location } });
    expect((created as unknown as Response).headers.get('location')).toBe(location);
    const first = await processed(org.api, org.id, 'by-put');

    const sourceURL = serve(petstore('v2'));
    const updated = await expectConforms(
      op,
      org.api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'by-put', allowed(op, { source: { url: sourceURL } })),
      200,
    );
    expect(updated.data).toMatchObject({ id: created.data.id, sourceURL, processingState: 'pending' });
    const second = await processed(org.api, org.id, 'by-put');
    expect(second.lastVersion).not.toBe(first.lastVersion);

    const versions = await expectConforms(
      'listOpenAPISpecVersions',
      org.api.orgs.listOpenApiSpecVersions(org.id, 'by-put', { limit: 1 }),
      200,
    );
    expect(versions.data.count).toBe(2);
    expect(versions.data.items.map((v) => v.id)).toEqual([second.lastVersion]);
    const older = await expectConforms(
      'listOpenAPISpecVersions',
      org.api.orgs.listOpenApiSpecVersions(org.id, 'by-put', { limit: 1, page: versions.data.next!.page }),
      200,
    );
    expect(older.data.items.map((v) => v.id)).toEqual([first.lastVersion]);
    expect(older.data.next).toBeUndefined();
    // Versions are immutable: the first still holds the first document.
    const oldContent = await expectConforms(
      'getOpenAPISpecVersionContentById',
      org.api.orgs.getOpenApiSpecVersionContentById(org.id, 'by-put', first.lastVersion!),
      200,
    );
    const filesystem = oldContent.data.filesystem as Record<string, { info: { title: string } }>;
    expect(filesystem['openapi.json']?.info.title).toBe('v1');
  });

  it('a source that fails to process reports lastProcessErrorCode and lastProcessedErrors', async () => {
    const org = await newOrg();
    const op = 'createOpenAPISpec';
    // No info.title: not an OpenAPI document.
    await expectConforms(
      op,
      org.api.orgs.createOpenApiSpec(
        org.id,
        allowed(op, { slug: 'invalid', ...textSource({ openapi: '3.0.3', info: { version: '1' } }) }),
      ),
      201,
    );
    const invalid = await processed(org.api, org.id, 'invalid');
    expect(invalid.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(invalid.lastProcessedErrors?.length).toBeGreaterThan(0);
    expect(invalid.lastProcessedErrorCount).toBeGreaterThan(0);
    expect(invalid.lastVersion).toBeUndefined();

    const path = `/failing-${fresh()}/openapi.json`;
    served.set(path, { status: 500 });
    await expectConforms(
      op,
      org.api.orgs.createOpenApiSpec(org.id, allowed(op, { slug: 'unreachable', source: { url: sourceUrl(path) } })),
      201,
    );
    const unreachable = await processed(org.api, org.id, 'unreachable');
    expect(unreachable.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(unreachable.lastVersion).toBeUndefined();
    // Without a processed version there is no latest one (404, "No matching OpenAPI specification version found").
    await expectApiError(
      'getLatestOpenAPISpecVersion',
      org.api.orgs.getLatestOpenApiSpecVersion(org.id, 'invalid'),
      404,
    );
    await expectApiError(
      'getLatestOpenAPISpecVersionContent',
      org.api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'unreachable'),
      404,
    );
  });

  it('deleteOpenAPISpecBySlug answers 204; the specification and its versions are gone (404)', async () => {
    const org = await newOrg();
    const spec = await processedSpec(org, 'gone');
    await expectConforms('deleteOpenAPISpecBySlug', org.api.orgs.deleteOpenApiSpecBySlug(org.id, 'gone'), 204);
    await expectApiError('getOpenAPISpecBySlug', org.api.orgs.getOpenApiSpecBySlug(org.id, 'gone'), 404);
    await expectApiError('listOpenAPISpecVersions', org.api.orgs.listOpenApiSpecVersions(org.id, 'gone'), 404);
    await expectApiError(
      'getOpenAPISpecVersionById',
      org.api.orgs.getOpenApiSpecVersionById(org.id, 'gone', spec.lastVersion!),
      404,
    );
    const listed = await expectConforms('listOpenAPISpecs', org.api.orgs.listOpenApiSpecs(org.id), 200);
    expect(listed.data.count).toBe(0);
  });
});

describe('coverage', () => {
  it('validated every operation of these areas', () => {
    // This file's part of the check (see "Coverage" in test/helpers/openapi-contract.ts): the
    // translation operations are checked by translations.contract.test.ts.
    expectOperationsCovered(OPENAPI_OPERATIONS);
  });
});
