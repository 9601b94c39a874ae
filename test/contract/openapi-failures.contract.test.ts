/**
 * Contract test of the OpenAPI specification calls that must fail: for outsiders and guests (404),
 * readers (403), bad slugs and bodies (400), slugs already taken (409), unknown specifications and
 * versions (404), and deletes of what never existed. Driven through the official `@gitbook/api`
 * client against a listening server (with a job worker, so sources are processed into versions);
 * every error body is validated against the official `Error` schema (and the operation's own for
 * that status), and where a test claims GitBook refuses a request body too, the official request
 * schema is asked.
 *
 * A deliberate difference from the official document (the product spec decides it): a
 * specification's slug is lower case only (`^[a-z0-9]+(?:-[a-z0-9]+)*$`); the official
 * `OpenAPISpecSlug` also allows upper-case letters. Deleting what never existed is another (below).
 *
 * That every operation was validated (on success) is checked by openapi.contract.test.ts and
 * translations.contract.test.ts, which make the successful calls, not here (see "Coverage" in
 * test/helpers/openapi-contract.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_WORKER, officialUsers, processedSpec, textSource } from '../helpers/openapi-contract.js';
import { type ContractServer, startContractServer } from './server.js';
import { allowed, expectApiError, expectConforms, requestSchemaPointer, validateAgainst } from './validate.js';

let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer(CONTRACT_WORKER);
});
afterAll(async () => server?.close());

const { newOrg, newMember, newOutsider } = officialUsers(() => server);

/** What the official request schema of `operationId` finds wrong with `body` ([] when it allows it). */
function officialRequestErrors(operationId: string, body: unknown): string[] {
  return validateAgainst(requestSchemaPointer(operationId)!, body);
}

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

/**
 * A deliberate difference: deleting something that never existed is a 404 in Bindery (the project's
 * convention: what the caller cannot find is 404), where the official document answers 204.
 * Deleting what exists answers 204 (openapi.contract.test.ts, translations.contract.test.ts).
 */
describe('deleting what never existed', () => {
  it('deleteOpenAPISpecBySlug and deleteTranslation of unknown ids answer 404 with the Error body', async () => {
    const org = await newOrg();
    await expectApiError('deleteOpenAPISpecBySlug', org.api.orgs.deleteOpenApiSpecBySlug(org.id, 'never-existed'), 404);
    await expectApiError('deleteTranslation', org.api.orgs.deleteTranslation(org.id, 'never-existed'), 404);
  });
});
