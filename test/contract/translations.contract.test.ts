/**
 * Contract test of translation settings. The operations are driven against a listening server,
 * through the official `@gitbook/api` client where it can express the request and otherwise at the
 * official method and path; every response is checked against GitBook's own OpenAPI document as far
 * as the deliberate difference below allows.
 *
 * A deliberate difference from the official document (the product spec decides it): the official
 * `Translation` object is a translation run (`{object: 'translation', status, source, language,
 * instructions, stats, ...}`, created from `{source, language}`), while Bindery's are translation
 * settings (`{object: 'translation-settings', id, title, languages, createdAt, updatedAt,
 * permissions, urls: {location}}`, created and updated from `{title, languages?}`). For
 * createTranslation, getTranslation and updateTranslation the request goes to the official method
 * and path, the status must be one the operation documents and failures must match the `Error`
 * schema, but the body is checked against our spec's shape (and, field by field, against the
 * official schemas where the two coincide: timestamps, `permissions`, `urls`, language codes), not
 * against the official `Translation` schema. listTranslations is validated against the official
 * schema when the list is empty (the envelope) and its items against our shape otherwise;
 * deleteTranslation and runTranslation (no body) are validated as is (answering 204: see
 * test/helpers/openapi-contract.ts). The settings also carry the official `source`
 * (TranslationSource), `status`, `results` (TranslationResult) and `stats`, each checked against its
 * official schema.
 * Deleting translation settings that never existed is in openapi-failures.contract.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_URL } from '../helpers/app.js';
import {
  officialUsers,
  TRANSLATION_OFFICIAL_OPERATIONS,
  TRANSLATION_OWN_SHAPE_OPERATIONS,
} from '../helpers/openapi-contract.js';
import { official } from './official.js';
import { type ContractServer, type Org, startContractServer } from './server.js';
import {
  assertResponseConforms,
  expectApiError,
  expectConforms,
  expectOperationsCovered,
  findOperation,
  responseSchemaPointer,
  validateAgainst,
} from './validate.js';

// No job worker: a run is only queued here (test/api/translation-runs.test.ts runs them). A model
// is configured (never called: nothing runs the job) so that runTranslation answers 204.
let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer({ env: { AI_BASE_URL: 'http://127.0.0.1:9/v1', AI_MODEL: 'unused' } });
});
afterAll(async () => server?.close());

const { newOrg, newMember, newOutsider } = officialUsers(() => server);

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
  const required = ['createdAt', 'id', 'languages', 'object', 'permissions', 'results', 'title', 'updatedAt', 'urls'];
  // What a source and runs add (official TranslationSource, TranslationStatus, stats; Bindery's error).
  const optional = ['source', 'status', 'stats', 'error'];
  expect(
    Object.keys(body)
      .filter((k) => !optional.includes(k))
      .sort(),
  ).toEqual(required.sort());
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
  const extra = body as unknown as Record<string, unknown>;
  for (const field of ['source', 'status', 'stats'] as const) if (field in extra) shared(field, extra[field]);
  for (const result of extra.results as unknown[]) {
    expect(validateAgainst('#/components/schemas/TranslationResult', result), 'results').toEqual([]);
  }
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

  it('runTranslation (204) with a source and targets; 404 for unknown settings', async () => {
    const org = await newOrg();
    const space = await org.api.orgs.createSpace(org.id, { title: 'Source' });
    const created = await ownShapeCall('createTranslation', { organizationId: org.id }, org.admin.token, 201, {
      title: 'Docs',
      languages: [official.TranslationLanguage.Fr],
      source: { space: space.data.id, language: official.TranslationLanguage.En },
    });
    expectTranslationSettings(created.body, { orgId: org.id, title: 'Docs', languages: ['fr'], edit: true });
    await expectConforms('runTranslation', org.api.orgs.runTranslation(org.id, created.body.id), 204);
    const params = { organizationId: org.id, translationId: created.body.id };
    const queued = await ownShapeCall('getTranslation', params, org.admin.token, 200);
    expectTranslationSettings(queued.body, { orgId: org.id, title: 'Docs', languages: ['fr'], edit: true });
    expect(queued.body).toMatchObject({ status: 'pending', source: { space: space.data.id, language: 'en' } });
    await expectApiError('runTranslation', org.api.orgs.runTranslation(org.id, 'no-such-translation'), 404);
    // The queued run is dropped: on PostgreSQL every test file shares the job table, and another
    // file's worker (with a model of its own) must not run it.
    const removed = await server.harness.db
      .deleteFrom('jobs')
      .where('kind', '=', 'translation.run')
      .where('payload', 'like', `%${created.body.id}%`)
      .executeTakeFirst();
    expect(Number(removed.numDeletedRows)).toBe(1);
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

describe('coverage', () => {
  it('validated every operation of these areas', () => {
    // This file's part of the check (see "Coverage" in test/helpers/openapi-contract.ts): the
    // OpenAPI specification operations are checked by openapi.contract.test.ts.
    expectOperationsCovered(TRANSLATION_OFFICIAL_OPERATIONS);
    for (const id of TRANSLATION_OWN_SHAPE_OPERATIONS) findOperation(id);
    expect([...ownShapeChecked].sort()).toEqual([...TRANSLATION_OWN_SHAPE_OPERATIONS].sort());
  });
});
