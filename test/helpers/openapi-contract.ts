/**
 * Set-up shared by the contract tests of OpenAPI specifications and translation settings
 * (test/contract/openapi.contract.test.ts, openapi-failures.contract.test.ts and
 * translations.contract.test.ts): the operations of these areas, the job worker that processes
 * sources, official clients for new organizations and their members, and specifications made and
 * processed through the official client.
 *
 * A deliberate difference from the official document that more than one of these files meets (the
 * product spec decides it): deleting answers 204 (the project's convention for "no body" operations)
 * where the document gives 205 for "has been deleted" (204, "did not exist", is documented too).
 * The differences of one file are listed at its top.
 *
 * Where the server departs from the official document without such a decision, the failing
 * assertion is kept in a `describe('server mismatches')` at the end of the file that meets it.
 */

import type { GitBookAPI } from '../contract/official.js';
import { type ContractServer, newMember, newOrg, newOutsider, type Org } from '../contract/server.js';
import { expectConforms } from '../contract/validate.js';
import { petstore, WORKER } from './openapi.js';

/*
 * Coverage. validate.ts counts the operations validated per test file, so the check of the original
 * single file, that every operation below was validated, is made in two parts, one list each:
 * - OPENAPI_OPERATIONS by openapi.contract.test.ts, which makes the successful call of every one;
 * - TRANSLATION_OFFICIAL_OPERATIONS and TRANSLATION_OWN_SHAPE_OPERATIONS by
 *   translations.contract.test.ts, which makes every translation call.
 * openapi-failures.contract.test.ts is about calls that fail (`expectApiError`, which is not
 * counted) and checks no part. The three lists are the ones 'has every operation of these areas'
 * (openapi.contract.test.ts) finds in the official document, and each is checked by exactly one of
 * the two files, so together they check every operation the original did; an operation added to a
 * list is checked by the file that owns the list.
 */

/** Every OpenAPI specification operation; openapi.contract.test.ts checks each was validated. */
export const OPENAPI_OPERATIONS = [
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
export const TRANSLATION_OFFICIAL_OPERATIONS = ['listTranslations', 'deleteTranslation', 'runTranslation'] as const;
/** Translation operations whose body is checked against our spec's shape (see translations.contract.test.ts). */
export const TRANSLATION_OWN_SHAPE_OPERATIONS = ['createTranslation', 'getTranslation', 'updateTranslation'] as const;

/**
 * A job worker that may fetch from loopback: the one of test/api/openapi*.test.ts (on PostgreSQL
 * every test file shares the job table, and a job either worker claims ends the same way); the slow
 * poll leaves claims to `wake()` after each file's own requests.
 */
export const CONTRACT_WORKER = { ...WORKER, jobPollMs: 1_000 };

/**
 * Makers of users with official clients on the test file's server (`server()`, once started), for
 * the files that start their server themselves (with their source server) instead of through
 * `useContractServer()`.
 */
export function officialUsers(server: () => ContractServer) {
  return {
    newOrg: () => newOrg(server()),
    newMember: (organizationId: string, role: Parameters<typeof newMember>[1]) =>
      newMember(organizationId, role, server()),
    newOutsider: () => newOutsider(server()),
  };
}

/** A `{text}` source of the official `OpenAPISpecSource`. */
export const textSource = (document: unknown = petstore()) => ({ source: { text: JSON.stringify(document) } });

/** Polls getOpenAPISpecBySlug (validating every answer) until processing is complete (bounded). */
export async function processed(api: GitBookAPI, orgId: string, slug: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await expectConforms('getOpenAPISpecBySlug', api.orgs.getOpenApiSpecBySlug(orgId, slug), 200);
    if (res.data.processingState === 'complete') return res.data;
    if (Date.now() > deadline) throw new Error(`specification ${slug} still ${res.data.processingState}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Creates a specification from text as the org admin and waits for it (setup only, not checked). */
export async function processedSpec(org: Org, slug: string, document: unknown = petstore()) {
  await org.api.orgs.createOpenApiSpec(org.id, { slug, ...textSource(document) });
  return processed(org.api, org.id, slug);
}
