/**
 * Contract test of OpenAPI specifications and their versions, and of translation settings. The
 * OpenAPI operations are driven through the official `@gitbook/api` client against a listening
 * server (with a job worker, so sources are processed into versions, some fetched from a server this
 * file runs on loopback); every request body is first checked against the official request schema
 * and every response body is validated against the schema GitBook's own OpenAPI document gives the
 * operation.
 *
 * Deliberate differences from the official document (the product spec decides these):
 * - A specification's slug is lower case only (`^[a-z0-9]+(?:-[a-z0-9]+)*$`); the official
 *   `OpenAPISpecSlug` also allows upper-case letters.
 * - Deleting answers 204 (the project's convention for "no body" operations) where the document gives
 *   205 for "has been deleted" (204, "did not exist", is documented too).
 * - Translations: the official `Translation` object is a translation run (`{object: 'translation',
 *   status, source, language, instructions, stats, ...}`, created from `{source, language}`), while
 *   Bindery's are translation settings (`{object: 'translation-settings', id, title, languages,
 *   createdAt, updatedAt, permissions, urls: {location}}`, created and updated from `{title,
 *   languages?}`). For createTranslation, getTranslation and updateTranslation the request goes to
 *   the official method and path, the status must be one the operation documents and failures must
 *   match the `Error` schema, but the body is checked against our spec's shape (and, field by field,
 *   against the official schemas where the two coincide: timestamps, `permissions`, `urls`, language
 *   codes), not against the official `Translation` schema. listTranslations is validated against the
 *   official schema when the list is empty (the envelope) and its items against our shape otherwise;
 *   deleteTranslation (no body) is validated as is.
 *
 * Where the server departs from the official document without such a decision, the failing
 * assertion is kept in `describe('server mismatches')` at the end.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_URL, type TestUser } from '../helpers/app.js';
import { type GitBookAPI, official } from './official.js';
import { type ContractServer, startContractServer } from './server.js';
import {
  assertRequestConforms,
  assertResponseConforms,
  expectApiError,
  expectConforms,
  expectOperationsCovered,
  findOperation,
  requestSchemaPointer,
  responseSchemaPointer,
  validateAgainst,
} from './validate.js';

/** Every OpenAPI operation; the last test fails if one of them was never validated. */
const OPENAPI_OPERATIONS = [
  'listOpenAPISpecs',
  'createOpenAPISpec',
  'getOpenAPISpecBySlug',
  'createOrUpdateOpenAPISpecBySlug',
  'deleteOpenAPISpecBySlug',
  'listOpenAPISpecVersions',
  'getLatestOpenAPISpecVersion',
  'getLatestOpenAPISpecVersionContent',
  'getOpenAPISpecVersionById',
  'getOpenAPISpecVersionContentById',
] as const;

/** Translation operations validated against the official response schema. */
const TRANSLATION_OFFICIAL_OPERATIONS = ['listTranslations', 'deleteTranslation'] as const;
/** Translation operations whose body is checked against our spec's shape (see the top comment). */
const TRANSLATION_OWN_SHAPE_OPERATIONS = ['createTranslation', 'getTranslation', 'updateTranslation'] as const;

/** A server for the specifications under test: path → body (or a failing status). */
type Served = { body: string; type?: string } | { status: number };
const served = new Map<string, Served>();
const sources = http.createServer((request, response) => {
  const entry = served.get(request.url ?? '');
  if (!entry) return response.writeHead(404).end('not found');
  if ('status' in entry) return response.writeHead(entry.status).end();
  response.writeHead(200, { 'content-type': entry.type ?? 'application/json' }).end(entry.body);
});
let sourcesBase = '';

/**
 * A job worker that may fetch from loopback. On PostgreSQL every test file shares the job table, so
 * these match the worker of test/api/openapi.test.ts (a job either worker claims ends the same way);
 * the slow poll leaves claims to `wake()` after this file's own requests.
 */
const WORKER = { fetchAllowPrivate: true, jobConcurrency: 2, jobPollMs: 1_000, fetchTimeoutMs: 1_000 };

let server: ContractServer;
beforeAll(async () => {
  await new Promise<void>((resolve) => sources.listen(0, '127.0.0.1', resolve));
  sourcesBase = `http://127.0.0.1:${(sources.address() as AddressInfo).port}`;
  server = await startContractServer(WORKER);
});
afterAll(async () => {
  await server?.close();
  sources.closeAllConnections();
  await new Promise((resolve) => sources.close(resolve));
});

interface Org {
  id: string;
  admin: TestUser;
  /** The official client, authenticated as the organization's admin. */
  api: GitBookAPI;
}

/** A new organization administered by a new user, with an official client for that admin. */
async function newOrg(): Promise<Org> {
  const { id, admin } = await server.harness.org();
  return { id, admin, api: server.client(admin.token) };
}

/** A new member of `organizationId` with `role` (null: guest), with an official client. */
async function newMember(organizationId: string, role: 'admin' | 'create' | 'read' | null) {
  const member = await server.harness.member(organizationId, role);
  return { ...member, api: server.client(member.token) };
}

/** A new user outside every organization, with an official client. */
async function newOutsider() {
  const user = await server.harness.user();
  return { ...user, api: server.client(user.token) };
}

/** `body`, after checking that the official document allows it as the request body of `operationId`. */
function allowed<T>(operationId: string, body: T): T {
  assertRequestConforms(operationId, body);
  return body;
}

/** What the official request schema of `operationId` finds wrong with `body` ([] when it allows it). */
function officialRequestErrors(operationId: string, body: unknown): string[] {
  return validateAgainst(requestSchemaPointer(operationId)!, body);
}

let counter = 0;
/** Serves `document` on loopback at a fresh path (or `path`); returns its URL. */
function serve(document: unknown, path = `/spec-${++counter}/openapi.json`): string {
  served.set(path, { body: typeof document === 'string' ? document : JSON.stringify(document) });
  return `${sourcesBase}${path}`;
}

function petstore(title = 'Pets') {
  return {
    openapi: '3.0.3',
    info: { title, version: '1.0.0' },
    paths: { '/pets': { get: { responses: { 200: { description: 'the pets' } } } } },
  };
}

/** A `{text}` source of the official `OpenAPISpecSource`. */
const textSource = (document: unknown = petstore()) => ({ source: { text: JSON.stringify(document) } });

const specLocation = (orgId: string, slug: string) => `${PUBLIC_URL}/v1/orgs/${orgId}/openapi/${slug}`;

/** Polls getOpenAPISpecBySlug (validating every answer) until processing is complete (bounded). */
async function processed(api: GitBookAPI, orgId: string, slug: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await expectConforms('getOpenAPISpecBySlug', api.orgs.getOpenApiSpecBySlug(orgId, slug), 200);
    if (res.data.processingState === 'complete') return res.data;
    if (Date.now() > deadline) throw new Error(`specification ${slug} still ${res.data.processingState}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Creates a specification from text as the org admin and waits for it (setup only, not checked). */
async function processedSpec(org: Org, slug: string, document: unknown = petstore()) {
  await org.api.orgs.createOpenApiSpec(org.id, { slug, ...textSource(document) });
  return processed(org.api, org.id, slug);
}

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

    const path = `/failing-${++counter}/openapi.json`;
    served.set(path, { status: 500 });
    await expectConforms(
      op,
      org.api.orgs.createOpenApiSpec(org.id, allowed(op, { slug: 'unreachable', source: { url: sourcesBase + path } })),
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

describe('OpenAPI specifications: failures', () => {
  it('outsiders and guests get 404 on every operation', async () => {
    const org = await newOrg();
    const spec = await processedSpec(org, 'private');
    const version = spec.lastVersion!;
    const outsider = await newOutsider();
    const guest = await newMember(org.id, null);
    for (const { api } of [outsider, guest]) {
      await expectApiError('listOpenAPISpecs', api.orgs.listOpenApiSpecs(org.id), 404);
      await expectApiError(
        'createOpenAPISpec',
        api.orgs.createOpenApiSpec(org.id, allowed('createOpenAPISpec', { slug: 'nope', ...textSource() })),
        404,
      );
      await expectApiError('getOpenAPISpecBySlug', api.orgs.getOpenApiSpecBySlug(org.id, 'private'), 404);
      await expectApiError(
        'createOrUpdateOpenAPISpecBySlug',
        api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'private', textSource()),
        404,
      );
      await expectApiError('deleteOpenAPISpecBySlug', api.orgs.deleteOpenApiSpecBySlug(org.id, 'private'), 404);
      await expectApiError('listOpenAPISpecVersions', api.orgs.listOpenApiSpecVersions(org.id, 'private'), 404);
      await expectApiError('getLatestOpenAPISpecVersion', api.orgs.getLatestOpenApiSpecVersion(org.id, 'private'), 404);
      await expectApiError(
        'getLatestOpenAPISpecVersionContent',
        api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'private'),
        404,
      );
      await expectApiError(
        'getOpenAPISpecVersionById',
        api.orgs.getOpenApiSpecVersionById(org.id, 'private', version),
        404,
      );
      await expectApiError(
        'getOpenAPISpecVersionContentById',
        api.orgs.getOpenApiSpecVersionContentById(org.id, 'private', version),
        404,
      );
    }
  });

  it('readers read (permissions.edit false) and get 403 on writes', async () => {
    const org = await newOrg();
    await processedSpec(org, 'shared');
    const reader = await newMember(org.id, 'read');
    const got = await expectConforms(
      'getOpenAPISpecBySlug',
      reader.api.orgs.getOpenApiSpecBySlug(org.id, 'shared'),
      200,
    );
    expect(got.data.permissions).toEqual({ view: true, edit: false });
    const listed = await expectConforms('listOpenAPISpecs', reader.api.orgs.listOpenApiSpecs(org.id), 200);
    expect(listed.data.items[0]?.permissions?.edit).toBe(false);
    await expectConforms(
      'getLatestOpenAPISpecVersionContent',
      reader.api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'shared'),
      200,
    );

    await expectApiError(
      'createOpenAPISpec',
      reader.api.orgs.createOpenApiSpec(org.id, allowed('createOpenAPISpec', { slug: 'by-reader', ...textSource() })),
      403,
    );
    await expectApiError(
      'createOrUpdateOpenAPISpecBySlug',
      reader.api.orgs.createOrUpdateOpenApiSpecBySlug(
        org.id,
        'shared',
        allowed('createOrUpdateOpenAPISpecBySlug', textSource()),
      ),
      403,
    );
    await expectApiError('deleteOpenAPISpecBySlug', reader.api.orgs.deleteOpenApiSpecBySlug(org.id, 'shared'), 403);
    // Nothing changed.
    const after = await expectConforms('listOpenAPISpecs', org.api.orgs.listOpenApiSpecs(org.id), 200);
    expect(after.data.items.map((s) => s.slug)).toEqual(['shared']);
  });

  it.each(['bad_slug', '-a', 'a-', 'a--b', 'a'.repeat(101)])(
    'createOpenAPISpec with the slug %j answers 400 (the official schema refuses it too)',
    async (slug) => {
      const org = await newOrg();
      const body = { slug, ...textSource() };
      expect(officialRequestErrors('createOpenAPISpec', body)).not.toEqual([]);
      const { body: error } = await expectApiError(
        'createOpenAPISpec',
        org.api.orgs.createOpenApiSpec(org.id, body),
        400,
      );
      expect((error as { error: { message: string } }).error.message).toContain('slug');
    },
  );

  it('createOrUpdateOpenAPISpecBySlug with an invalid slug in the path, or without source, answers 400', async () => {
    const org = await newOrg();
    await expectApiError(
      'createOrUpdateOpenAPISpecBySlug',
      org.api.orgs.createOrUpdateOpenApiSpecBySlug(
        org.id,
        'bad_slug',
        allowed('createOrUpdateOpenAPISpecBySlug', textSource()),
      ),
      400,
    );
    const noSource = {} as { source: { text: string } };
    expect(officialRequestErrors('createOrUpdateOpenAPISpecBySlug', noSource)).not.toEqual([]);
    await expectApiError(
      'createOrUpdateOpenAPISpecBySlug',
      org.api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'fine', noSource),
      400,
    );
    const emptyText = { source: { text: '' } };
    expect(officialRequestErrors('createOrUpdateOpenAPISpecBySlug', emptyText)).not.toEqual([]);
    await expectApiError(
      'createOrUpdateOpenAPISpecBySlug',
      org.api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'fine', emptyText),
      400,
    );
  });

  it('a slug with upper-case letters answers 400 (deliberate: the product spec allows lower case only)', async () => {
    const org = await newOrg();
    const body = { slug: 'Upper', ...textSource() };
    // The official OpenAPISpecSlug allows it; Bindery's spec does not.
    expect(officialRequestErrors('createOpenAPISpec', body)).toEqual([]);
    await expectApiError('createOpenAPISpec', org.api.orgs.createOpenApiSpec(org.id, body), 400);
  });

  it('createOpenAPISpec with a slug already taken answers 409 (Error schema)', async () => {
    const org = await newOrg();
    const body = allowed('createOpenAPISpec', { slug: 'dup', ...textSource() });
    await expectConforms('createOpenAPISpec', org.api.orgs.createOpenApiSpec(org.id, body), 201);
    const { body: error } = await expectApiError(
      'createOpenAPISpec',
      org.api.orgs.createOpenApiSpec(org.id, body),
      409,
    );
    expect((error as { error: { message: string } }).error.message).toContain('dup');
  });

  it('unknown specifications and versions answer 404', async () => {
    const org = await newOrg();
    await processedSpec(org, 'known');
    await expectApiError('getOpenAPISpecBySlug', org.api.orgs.getOpenApiSpecBySlug(org.id, 'unknown'), 404);
    await expectApiError('listOpenAPISpecVersions', org.api.orgs.listOpenApiSpecVersions(org.id, 'unknown'), 404);
    await expectApiError(
      'getLatestOpenAPISpecVersion',
      org.api.orgs.getLatestOpenApiSpecVersion(org.id, 'unknown'),
      404,
    );
    await expectApiError(
      'getLatestOpenAPISpecVersionContent',
      org.api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'unknown'),
      404,
    );
    await expectApiError(
      'getOpenAPISpecVersionById',
      org.api.orgs.getOpenApiSpecVersionById(org.id, 'known', 'no-such-version'),
      404,
    );
    await expectApiError(
      'getOpenAPISpecVersionContentById',
      org.api.orgs.getOpenApiSpecVersionContentById(org.id, 'known', 'no-such-version'),
      404,
    );
  });
});

// ---------------------------------------------------------------------------------------------------
// Translations (translation settings): see the top comment for why these bodies are not validated
// against the official `Translation` schema.

/** Operations of TRANSLATION_OWN_SHAPE_OPERATIONS whose success was checked with {@link ownShapeCall}. */
const ownShapeChecked = new Set<string>();

interface TranslationSettingsBody {
  object: string;
  id: string;
  title: string;
  languages: string[];
  createdAt: string;
  updatedAt: string;
  permissions: { view?: boolean; edit: boolean };
  urls: { location: string };
}

const translationsPath = (orgId: string) => `/v1/orgs/${orgId}/translations`;

/** The URL of `operationId` on the listening server, from the official path template. */
function officialUrl(operationId: string, params: Record<string, string>): string {
  const path = findOperation(operationId).path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operationId}: no value for the path parameter ${name}`);
    return encodeURIComponent(value);
  });
  return `${server.endpoint}/v1${path}`;
}

/**
 * Sends a request the official client cannot express (our body differs) to `operationId`'s official
 * method and path, and checks what the official document and our spec agree on: the status is
 * `expected` and documented for the operation; a failure's body matches the `Error` component (and
 * the operation's own schema for that status, when it gives one). Returns the status and parsed body.
 */
async function ownShapeCall(
  operationId: (typeof TRANSLATION_OWN_SHAPE_OPERATIONS)[number] | 'listTranslations',
  params: Record<string, string>,
  token: string,
  expected: number,
  body?: unknown,
): Promise<{ status: number; body: any; headers: Headers }> {
  const { method } = findOperation(operationId);
  const res = await fetch(officialUrl(operationId, params), {
    method: method.toUpperCase(),
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text === '' ? undefined : JSON.parse(text);
  expect(res.status, `${operationId}: ${text}`).toBe(expected);
  if (res.status >= 400) {
    expect(validateAgainst('#/components/schemas/Error', parsed), `${operationId} ${res.status}: ${text}`).toEqual([]);
    expect(parsed.error.code).toBe(res.status);
    if (responseSchemaPointer(operationId, res.status)) assertResponseConforms(operationId, res.status, parsed);
  } else {
    expect(responseSchemaPointer(operationId, res.status), `${operationId} documents ${res.status}`).not.toBe(
      undefined,
    );
    if (operationId !== 'listTranslations') ownShapeChecked.add(operationId);
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/**
 * Asserts `body` is translation settings as our spec gives them, and that the fields it shares with
 * the official `Translation` object (timestamps, permissions, urls, language codes) match the
 * official schemas of those fields.
 */
function expectTranslationSettings(
  body: TranslationSettingsBody,
  expected: { orgId: string; title: string; languages: string[]; edit: boolean },
): void {
  expect(Object.keys(body).sort()).toEqual(
    ['createdAt', 'id', 'languages', 'object', 'permissions', 'title', 'updatedAt', 'urls'].sort(),
  );
  expect(body).toMatchObject({
    object: 'translation-settings',
    id: expect.any(String),
    title: expected.title,
    languages: expected.languages,
    permissions: { edit: expected.edit },
    urls: { location: `${PUBLIC_URL}${translationsPath(expected.orgId)}/${body.id}` },
  });
  expect(body.title.length).toBeGreaterThanOrEqual(1);
  expect(body.title.length).toBeLessThanOrEqual(100);
  const shared = (field: string, value: unknown) =>
    expect(validateAgainst(`#/components/schemas/Translation/properties/${field}`, value), field).toEqual([]);
  shared('createdAt', body.createdAt);
  shared('updatedAt', body.updatedAt);
  shared('permissions', body.permissions);
  shared('urls', body.urls);
  for (const language of body.languages)
    expect(validateAgainst('#/components/schemas/TranslationLanguage', language), language).toEqual([]);
}

/** Creates translation settings as the org admin (setup only). */
async function translation(org: Org, title = 'Docs', languages: string[] = []) {
  const res = await ownShapeCall('createTranslation', { organizationId: org.id }, org.admin.token, 201, {
    title,
    languages,
  });
  return res.body as TranslationSettingsBody;
}

describe('translations', () => {
  it('createTranslation (201, Location), getTranslation, updateTranslation, deleteTranslation (204)', async () => {
    const org = await newOrg();
    const languages = [official.TranslationLanguage.Fr, official.TranslationLanguage.PtBr];
    const created = await ownShapeCall('createTranslation', { organizationId: org.id }, org.admin.token, 201, {
      title: 'Docs',
      languages,
    });
    expectTranslationSettings(created.body, { orgId: org.id, title: 'Docs', languages, edit: true });
    expect(created.headers.get('location')).toBe(created.body.urls.location);
    expect(created.body.createdAt).toBe(created.body.updatedAt);
    const params = { organizationId: org.id, translationId: created.body.id };

    const got = await ownShapeCall('getTranslation', params, org.admin.token, 200);
    expect(got.body).toEqual(created.body);

    // `languages` absent: kept.
    const renamed = await ownShapeCall('updateTranslation', params, org.admin.token, 200, { title: 'Guides' });
    expectTranslationSettings(renamed.body, { orgId: org.id, title: 'Guides', languages, edit: true });
    expect(renamed.body.id).toBe(created.body.id);
    expect(renamed.body.updatedAt >= created.body.updatedAt).toBe(true);
    const cleared = await ownShapeCall('updateTranslation', params, org.admin.token, 200, {
      title: 'Guides',
      languages: [],
    });
    expectTranslationSettings(cleared.body, { orgId: org.id, title: 'Guides', languages: [], edit: true });

    await expectConforms('deleteTranslation', org.api.orgs.deleteTranslation(org.id, created.body.id), 204);
    await expectApiError('getTranslation', org.api.orgs.getTranslation(org.id, created.body.id), 404);
  });

  it('createTranslation without languages makes an empty list', async () => {
    const org = await newOrg();
    const res = await ownShapeCall('createTranslation', { organizationId: org.id }, org.admin.token, 201, {
      title: 'No languages',
    });
    expectTranslationSettings(res.body, { orgId: org.id, title: 'No languages', languages: [], edit: true });
  });

  it('listTranslations: the empty list conforms to the official schema; items have our shape, paged', async () => {
    const org = await newOrg();
    const empty = await expectConforms('listTranslations', org.api.orgs.listTranslations(org.id), 200);
    expect(empty.data).toMatchObject({ items: [], count: 0 });

    const made: string[] = [];
    for (const title of ['one', 'two', 'three']) made.push((await translation(org, title)).id);
    const first = await ownShapeCall('listTranslations', { organizationId: org.id }, org.admin.token, 200);
    expect(validateAgainst('#/components/schemas/List', first.body)).toEqual([]);
    expect(first.body.count).toBe(3);
    for (const item of first.body.items)
      expectTranslationSettings(item, { orgId: org.id, title: item.title, languages: [], edit: true });

    // Paging, through the client's own query parameters.
    const page1 = await org.api.orgs.listTranslations(org.id, { limit: 2 });
    expect(page1.status).toBe(200);
    expect(validateAgainst('#/components/schemas/List', page1.data)).toEqual([]);
    expect(page1.data.items).toHaveLength(2);
    const page2 = await org.api.orgs.listTranslations(org.id, { limit: 2, page: page1.data.next!.page });
    expect(page2.data.next).toBeUndefined();
    const ids = [...page1.data.items, ...page2.data.items].map((t) => t.id);
    expect(ids.sort()).toEqual([...made].sort());
  });

  it('outsiders and guests get 404 (Error schema)', async () => {
    const org = await newOrg();
    const existing = await translation(org);
    const params = { organizationId: org.id, translationId: existing.id };
    const outsider = await newOutsider();
    const guest = await newMember(org.id, null);
    for (const user of [outsider, guest]) {
      await expectApiError('listTranslations', user.api.orgs.listTranslations(org.id), 404);
      await expectApiError('getTranslation', user.api.orgs.getTranslation(org.id, existing.id), 404);
      await expectApiError('deleteTranslation', user.api.orgs.deleteTranslation(org.id, existing.id), 404);
      await ownShapeCall('createTranslation', { organizationId: org.id }, user.token, 404, { title: 'x' });
      await ownShapeCall('updateTranslation', params, user.token, 404, { title: 'x' });
    }
  });

  it('readers read (permissions.edit false) and get 403 on writes (Error schema)', async () => {
    const org = await newOrg();
    const existing = await translation(org, 'Shared', [official.TranslationLanguage.De]);
    const params = { organizationId: org.id, translationId: existing.id };
    const reader = await newMember(org.id, 'read');
    const got = await ownShapeCall('getTranslation', params, reader.token, 200);
    expectTranslationSettings(got.body, { orgId: org.id, title: 'Shared', languages: ['de'], edit: false });

    await ownShapeCall('createTranslation', { organizationId: org.id }, reader.token, 403, { title: 'x' });
    await ownShapeCall('updateTranslation', params, reader.token, 403, { title: 'x' });
    await expectApiError('deleteTranslation', reader.api.orgs.deleteTranslation(org.id, existing.id), 403);
    const unchanged = await ownShapeCall('getTranslation', params, org.admin.token, 200);
    expect(unchanged.body.title).toBe('Shared');
  });

  it('bad bodies answer 400 (the official BadRequestError schema)', async () => {
    const org = await newOrg();
    const existing = await translation(org);
    const params = { organizationId: org.id, translationId: existing.id };
    for (const body of [
      { title: '' },
      { title: 'a'.repeat(101) },
      { title: 'x', languages: ['klingon'] },
      { title: 'x', languages: ['en', 'en'] },
      { title: 'x', color: 'red' },
      { languages: ['en'] },
    ]) {
      await ownShapeCall('createTranslation', { organizationId: org.id }, org.admin.token, 400, body);
      await ownShapeCall('updateTranslation', params, org.admin.token, 400, body);
    }
  });

  it('unknown translation settings answer 404', async () => {
    const org = await newOrg();
    const params = { organizationId: org.id, translationId: 'no-such-translation' };
    await expectApiError('getTranslation', org.api.orgs.getTranslation(org.id, 'no-such-translation'), 404);
    await ownShapeCall('updateTranslation', params, org.admin.token, 404, { title: 'x' });
    // Settings of another organization are not found through this one.
    const other = await newOrg();
    const theirs = await translation(other);
    await expectApiError('getTranslation', org.api.orgs.getTranslation(org.id, theirs.id), 404);
  });
});

/**
 * A deliberate difference: deleting something that never existed is a 404 in Bindery (the project's
 * convention: what the caller cannot find is 404), where the official document answers 204.
 * Deleting what exists answers 204 (see above).
 */
describe('deleting what never existed', () => {
  it('deleteOpenAPISpecBySlug and deleteTranslation of unknown ids answer 404 with the Error body', async () => {
    const org = await newOrg();
    await expectApiError('deleteOpenAPISpecBySlug', org.api.orgs.deleteOpenApiSpecBySlug(org.id, 'never-existed'), 404);
    await expectApiError('deleteTranslation', org.api.orgs.deleteTranslation(org.id, 'never-existed'), 404);
  });
});

describe('coverage', () => {
  it('validated every operation of these areas', () => {
    expectOperationsCovered([...OPENAPI_OPERATIONS, ...TRANSLATION_OFFICIAL_OPERATIONS]);
    for (const id of TRANSLATION_OWN_SHAPE_OPERATIONS) findOperation(id);
    expect([...ownShapeChecked].sort()).toEqual([...TRANSLATION_OWN_SHAPE_OPERATIONS].sort());
  });
});
