/**
 * Contract checks against GitBook's official OpenAPI document, the one shipped with the pinned
 * `@gitbook/api` client (`node_modules/@gitbook/api/spec/openapi.json`).
 *
 * - {@link validateResponse} / {@link assertResponseConforms}: validate a body against the schema the
 *   official document gives an operation for a status (`responses[status].content['application/json']
 *   .schema`, following a `$ref` to `#/components/responses/...`).
 * - {@link createContractClient}: a real `GitBookAPI` client whose transport keeps a copy of every
 *   response (method and raw body), so even error bodies, which the client consumes itself, can be checked.
 * - {@link expectConforms}: awaits a client call, checks that the request hit the operation's method
 *   and path, that the status is one the operation documents, and that the body matches its schema.
 * - {@link assertRequestConforms}: checks that a request body a test sends is one the official
 *   document allows (for tests of requests GitBook accepts).
 * - {@link expectApiError}: awaits a client call that must fail with a `GitBookAPIError` of a given code
 *   and checks the body against the `Error` component (and the operation's own schema for that status).
 *
 * Adding the operations of another API area:
 * 1. Find the client method by operationId in `node_modules/@gitbook/api/dist/index.js` (the method
 *    name is usually the operationId, but not always: `setUserAsSSOMemberForOrganization` is
 *    `api.orgs.setUserAsSsoMemberForOrganization`).
 * 2. In a new `test/contract/<area>.contract.test.ts`, start a server with `startContractServer()`
 *    (`./server.ts`; `server.client(token)` gives a recording client), list the area's operationIds
 *    in a constant, and wrap every call:
 *      const res = await expectConforms('listSpacesForOrganizationMember', api.orgs.listSpacesForOrganizationMember(orgId, userId));
 *    For operations answering 204, pass the expected status: `expectConforms(op, call, 204)`.
 *    Failures: `await expectApiError(op, call, 404)`. Enums and types come from `./official.ts`
 *    (the package's own type entry point does not resolve under NodeNext; see there).
 * 3. End the file with a test calling `expectOperationsCovered(AREA_OPERATIONS)`, which fails when an
 *    operation of the list was never validated (or is not in the official document). Coverage is
 *    counted per test file (each file runs in its own module graph).
 * Nothing needs registering here: operations are looked up by operationId in the official document.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { type GitBookAPI, type GitBookAPIError, official } from './official.js';

const require = createRequire(import.meta.url);

/** The `$id` under which the official document is registered with Ajv. */
export const OPENAPI_ID = 'https://gitbook.test/openapi.json';

type Json = Record<string, any>;

/** The official OpenAPI document. */
export const openapi: Json = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8'));

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OfficialOperation {
  operationId: string;
  method: string;
  /** Path template of the document, e.g. `/orgs/{organizationId}` (without `/v1`). */
  path: string;
  operation: Json;
}

let operationIndex: Map<string, OfficialOperation> | undefined;

/** The operation of the official document with this operationId (searched over every path and method). */
export function findOperation(operationId: string): OfficialOperation {
  if (!operationIndex) {
    operationIndex = new Map();
    for (const [path, item] of Object.entries<Json>(openapi.paths ?? {})) {
      for (const method of HTTP_METHODS) {
        const operation = item[method] as Json | undefined;
        if (operation?.operationId) {
          operationIndex.set(operation.operationId, { operationId: operation.operationId, method, path, operation });
        }
      }
    }
  }
  const found = operationIndex.get(operationId);
  if (!found) throw new Error(`operation ${operationId} is not in the official GitBook OpenAPI document`);
  return found;
}

/** Escapes one JSON-pointer segment and makes it safe inside a URI fragment. */
function pointerSegment(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
}

function pointer(segments: string[]): string {
  return `#/${segments.map(pointerSegment).join('/')}`;
}

/** Follows a local `#/...` `$ref` inside the official document. */
function resolveLocal(ref: string): { value: Json; segments: string[] } {
  if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`);
  const segments = ref
    .slice(2)
    .split('/')
    .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  let value: any = openapi;
  for (const s of segments) {
    value = value?.[s];
    if (value === undefined) throw new Error(`unresolvable $ref ${ref}`);
  }
  return { value, segments };
}

/**
 * Where the official document keeps the JSON schema of an operation's response body for `status`:
 * a JSON pointer, `null` when the status is documented without a JSON body (e.g. 204), `undefined`
 * when the operation does not document the status at all.
 */
export function responseSchemaPointer(operationId: string, status: number | string): string | null | undefined {
  const { method, path, operation } = findOperation(operationId);
  const responses = (operation.responses ?? {}) as Json;
  const key = String(status);
  let response = responses[key] as Json | undefined;
  if (!response) return undefined;
  let segments = ['paths', path, method, 'responses', key];
  if (typeof response.$ref === 'string') {
    const resolved = resolveLocal(response.$ref);
    response = resolved.value;
    segments = resolved.segments;
  }
  if (!response.content?.['application/json']?.schema) return null;
  return pointer([...segments, 'content', 'application/json', 'schema']);
}

/**
 * Where the official document keeps the JSON schema of an operation's request body (following a
 * `$ref` to `#/components/requestBodies/...`); `undefined` when it documents no JSON body.
 */
export function requestSchemaPointer(operationId: string): string | undefined {
  const { method, path, operation } = findOperation(operationId);
  let body = operation.requestBody as Json | undefined;
  if (!body) return undefined;
  let segments = ['paths', path, method, 'requestBody'];
  if (typeof body.$ref === 'string') {
    const resolved = resolveLocal(body.$ref);
    body = resolved.value;
    segments = resolved.segments;
  }
  if (!body.content?.['application/json']?.schema) return undefined;
  return pointer([...segments, 'content', 'application/json', 'schema']);
}

let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

function getAjv(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  // Formats the document uses that Ajv does not know (e.g. `int32`, `emoji`) are annotations only.
  const used = new Set<string>();
  JSON.stringify(openapi, (key, value) => {
    if (key === 'format' && typeof value === 'string') used.add(value);
    return value;
  });
  for (const format of used) if (!ajv.formats[format]) ajv.addFormat(format, true);
  ajv.addSchema(openapi, OPENAPI_ID);
  return ajv;
}

/** The compiled validator of the schema at `jsonPointer` (a `#/...` pointer into the official document). */
export function validatorAt(jsonPointer: string): ValidateFunction {
  let validate = validators.get(jsonPointer);
  if (!validate) {
    validate = getAjv().compile({ $ref: `${OPENAPI_ID}${jsonPointer}` });
    validators.set(jsonPointer, validate);
  }
  return validate;
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function valueAt(body: unknown, instancePath: string): unknown {
  let value: any = body;
  for (const raw of instancePath.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    value = value?.[key];
  }
  return value;
}

/** `items/0/role must be equal to one of the allowed values (allowed: ...) — got "owner"` */
export function formatErrors(errors: ErrorObject[] | null | undefined, body: unknown): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath || '(root)';
    const params = e.params as Record<string, unknown>;
    let detail = '';
    if (e.keyword === 'enum') detail = ` (allowed: ${describeValue(params.allowedValues)})`;
    else if (e.keyword === 'const') detail = ` (expected: ${describeValue(params.allowedValue)})`;
    else if (e.keyword === 'additionalProperties') detail = ` (${String(params.additionalProperty)})`;
    const got = e.keyword === 'required' ? '' : ` — got ${describeValue(valueAt(body, e.instancePath))}`;
    return `${where} ${e.message ?? 'is invalid'}${detail}${got} [schema ${e.schemaPath}]`;
  });
}

/** Validates `body` against the schema at a `#/...` pointer of the official document; [] when valid. */
export function validateAgainst(jsonPointer: string, body: unknown): string[] {
  const validate = validatorAt(jsonPointer);
  return validate(body) ? [] : formatErrors(validate.errors, body);
}

/**
 * Validates `body` against the official response schema of `operationId` for `status`; [] when valid.
 * A status the operation does not document, or a body where none is documented, is an error too.
 */
export function validateResponse(operationId: string, status: number, body: unknown): string[] {
  const at = responseSchemaPointer(operationId, status);
  if (at === undefined) {
    const documented = Object.keys(findOperation(operationId).operation.responses ?? {}).join(', ');
    return [`status ${status} is not documented for ${operationId} (documented: ${documented})`];
  }
  if (at === null) {
    const empty = body === undefined || body === null || body === '';
    return empty ? [] : [`${operationId} documents no body for ${status}, got ${describeValue(body)}`];
  }
  return validateAgainst(at, body);
}

/**
 * Throws unless `body` is a request body the official document allows for `operationId`: proves that
 * a request a test sends is one GitBook's own API accepts.
 */
export function assertRequestConforms(operationId: string, body: unknown): void {
  const at = requestSchemaPointer(operationId);
  if (!at) throw new Error(`${operationId} documents no JSON request body`);
  const errors = validateAgainst(at, body);
  if (errors.length > 0) {
    throw new Error(`request body of ${operationId} breaks the official GitBook schema:\n  - ${errors.join('\n  - ')}`);
  }
}

/** `body`, after checking that the official document allows it as the request body of `operationId`. */
export function allowed<T>(operationId: string, body: T): T {
  assertRequestConforms(operationId, body);
  return body;
}

/** Throws a readable error naming every field of `body` that breaks the official schema. */
export function assertResponseConforms(operationId: string, status: number, body: unknown): void {
  const errors = validateResponse(operationId, status, body);
  if (errors.length > 0) {
    throw new Error(
      `${operationId} ${status} does not match the official GitBook schema:\n  - ${errors.join('\n  - ')}\n` +
        `body: ${JSON.stringify(body, null, 2)}`,
    );
  }
}

/** What the contract client's transport saw of a response. */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  /** The raw response body. */
  text: string;
}

const exchanges = new WeakMap<Response, Exchange>();

/** The exchange recorded for a response (success responses and `GitBookAPIError.response` alike). */
export function exchangeOf(response: Response): Exchange | undefined {
  return exchanges.get(response);
}

/** A real `GitBookAPI` client on `endpoint` whose transport records every response for the checks here. */
export function createContractClient(endpoint: string, authToken?: string): GitBookAPI {
  return new official.GitBookAPI({
    endpoint,
    authToken,
    serviceBinding: {
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        const response = await fetch(input, init);
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
        exchanges.set(response, { method, url, status: response.status, text: await response.clone().text() });
        return response;
      },
    },
  });
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function pathMatches(template: string, pathname: string): boolean {
  const source = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^/v1${source}/?$`).test(pathname);
}

/** Checks that a recorded request hit the official method and path of `operationId`. */
function assertRoute(operationId: string, exchange: Exchange): void {
  const { method, path } = findOperation(operationId);
  const { pathname } = new URL(exchange.url);
  if (exchange.method !== method.toUpperCase() || !pathMatches(path, pathname)) {
    throw new Error(
      `${operationId} is ${method.toUpperCase()} ${path}, but the client sent ${exchange.method} ${pathname}`,
    );
  }
}

const covered = new Set<string>();

/** The client's answer (its `HttpResponse`): the fetch `Response`, carrying the parsed body as `data`. */
export interface ClientResponse {
  status: number;
  data: unknown;
}

/**
 * Awaits a `GitBookAPI` call and asserts its response conforms to the official document: the request
 * hit `operationId`'s method and path, the status is `expectedStatus` (when given) and documented,
 * and the body matches the schema documented for that status. Returns the client's response.
 * `documentedAs` is for a deliberate difference of status only (201 with Location where the document
 * lists 200; 204 where it lists 205): the body is then checked against that documented status.
 */
export async function expectConforms<R extends ClientResponse>(
  operationId: string,
  call: Promise<R>,
  expectedStatus?: number,
  documentedAs?: number,
): Promise<R> {
  let res: R;
  try {
    res = await call;
  } catch (error) {
    if (!(error instanceof official.GitBookAPIError)) throw error;
    const text = exchangeOf(error.response)?.text ?? error.errorMessage;
    const expected = expectedStatus === undefined ? '' : ` (expected ${expectedStatus})`;
    throw new Error(`${operationId} failed with ${error.code}${expected}: ${text}`);
  }
  const exchange = exchangeOf(res as unknown as Response);
  if (!exchange) throw new Error(`${operationId}: the response was not recorded; use createContractClient()`);
  assertRoute(operationId, exchange);
  if (expectedStatus !== undefined && res.status !== expectedStatus) {
    throw new Error(`${operationId} answered ${res.status}, expected ${expectedStatus}: ${exchange.text}`);
  }
  // The client parses the body only for operations it expects JSON from; the raw body is checked
  // either way (a 204 must come without one).
  const status = documentedAs ?? res.status;
  const body = responseSchemaPointer(operationId, status) ? res.data : parseBody(exchange.text);
  assertResponseConforms(operationId, status, body);
  covered.add(operationId);
  return res;
}

/**
 * Awaits a `GitBookAPI` call that must fail with a `GitBookAPIError` of `code`, and checks the error
 * body against the official `Error` component and, when `operationId` documents `code`, against the
 * operation's own schema for it (e.g. `#/components/responses/NotFoundError`). Returns the error.
 */
export async function expectApiError(
  operationId: string,
  call: Promise<unknown>,
  code: number,
): Promise<{ error: GitBookAPIError; body: unknown }> {
  let caught: unknown;
  try {
    await call;
  } catch (error) {
    caught = error;
  }
  if (!(caught instanceof official.GitBookAPIError)) {
    throw new Error(`${operationId}: expected a GitBookAPIError ${code}, got ${caught ? String(caught) : 'success'}`);
  }
  const exchange = exchangeOf(caught.response);
  if (!exchange) throw new Error(`${operationId}: the response was not recorded; use createContractClient()`);
  assertRoute(operationId, exchange);
  if (caught.code !== code)
    throw new Error(`${operationId}: expected error ${code}, got ${caught.code}: ${exchange.text}`);
  const body = parseBody(exchange.text);
  const errors = validateAgainst('#/components/schemas/Error', body);
  if (responseSchemaPointer(operationId, code)) errors.push(...validateResponse(operationId, code, body));
  if (errors.length > 0) {
    throw new Error(
      `${operationId} ${code} error body does not match the official GitBook schema:\n  - ${errors.join('\n  - ')}\n` +
        `body: ${exchange.text}`,
    );
  }
  return { error: caught, body };
}

/** Operations of `operationIds` that no {@link expectConforms} call has validated yet (in this test file). */
export function uncoveredOperations(operationIds: readonly string[]): string[] {
  return operationIds.filter((id) => !covered.has(id));
}

/** Fails unless every listed operation exists in the official document and was validated. */
export function expectOperationsCovered(operationIds: readonly string[]): void {
  for (const id of operationIds) findOperation(id);
  const missing = uncoveredOperations(operationIds);
  if (missing.length > 0)
    throw new Error(`operations never validated against the official schema: ${missing.join(', ')}`);
}
