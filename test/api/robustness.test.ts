/**
 * Bad input must never be a 500. Every operation of our own OpenAPI document is called by an org
 * admin with unknown ids and with malformed bodies and queries; each answer must be a 4xx (or a
 * success) with the error envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const BODIES: unknown[] = [
  {},
  [],
  'text',
  42,
  { title: null, name: null, role: null, source: null, url: null, status: null },
  { title: 'x'.repeat(5000), name: '\u0000\u202e', role: 'owner', limit: -1, spaces: 'abc', users: 'u' },
  { unknownField: true },
];
const QUERIES = ['', '?limit=abc', '?limit=1001', '?page=%E2%9C%93', '?page=eyJ4IjoxfQ', '?order=sideways&sort=none'];

/** An organization with one of each resource, and the real id for each path parameter. */
async function fixture() {
  const org = await h.org();
  const c = org.admin.client;
  // Real resources, so that calls get past "not found" to validation and the handlers.
  const space = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'S' })).body.id;
  const collection = (await c.post(`/v1/orgs/${org.id}/collections`, { title: 'C' })).body.id;
  const team = (await c.put(`/v1/orgs/${org.id}/teams`, { title: 'T' })).body.id;
  const site = (await c.post(`/v1/orgs/${org.id}/sites`, { title: 'Site', spaces: [space] })).body.id;
  const cr = (await c.post(`/v1/spaces/${space}/change-requests`, { subject: 'CR' })).body.id;
  const hostname = `docs-${org.id.toLowerCase()}.example.test`;
  expect((await c.put(`/v1/custom-hostnames/${hostname}`, { site })).status).toBe(201);
  const real: Record<string, string> = {
    hostname,
    spaceId: space,
    collectionId: collection,
    teamId: team,
    siteId: site,
    changeRequestId: cr,
    userId: org.admin.user.id,
  };
  expect(Object.values(real).every(Boolean)).toBe(true);
  const doc = (await h.anonymous.get('/v1/openapi.json')).body as {
    paths: Record<string, Record<string, unknown>>;
  };
  return { org, real, doc };
}

const fill = (template: string, orgId: string, value: (name: string) => string) =>
  template
    .replace(/\{organizationId\}/g, orgId)
    .replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(value(name)));

describe('no 500 on bad input', () => {
  it('every operation answers 4xx/2xx with the error envelope on failures', async () => {
    const { org, real, doc } = await fixture();
    const failures: string[] = [];
    let calls = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        for (const id of ['real', 'nope', 'x'.repeat(300)]) {
          const url = template
            .replace(/\{organizationId\}/g, org.id)
            .replace(/\{([^}]+)\}/g, (_, name: string) =>
              encodeURIComponent(id === 'real' ? (real[name] ?? 'nope') : id),
            );
          const inputs =
            method === 'get' || method === 'delete'
              ? QUERIES.map((q) => ({ url: url + q, body: undefined as unknown }))
              : BODIES.map((body) => ({ url, body }));
          for (const input of inputs) {
            calls++;
            const res = await org.admin.client.request(method.toUpperCase(), input.url, input.body);
            const envelope =
              res.status < 400 ||
              String(res.headers['content-type'] ?? '').includes('event-stream') ||
              (typeof res.body === 'object' && res.body !== null && 'error' in res.body);
            if (res.status >= 500 || !envelope) {
              failures.push(
                `${method.toUpperCase()} ${input.url} ${JSON.stringify(input.body)?.slice(0, 60)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`,
              );
            }
          }
        }
      }
    }
    expect(calls).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  }, 180_000);
});

/** Operations any authenticated user may call, whatever organization they belong to. */
const OPEN_TO_ALL = [
  /^GET \/v1\/user$/,
  /^(GET|POST) \/v1\/orgs$/,
  /^GET \/v1\/integrations/,
  /^POST \/v1\/integrations\/\{integrationName\}$/,
  // Joining by e-mail domain is for people outside the organization: 400 for another domain (official).
  /^POST \/v1\/orgs\/\{organizationId\}\/join$/,
  // The caller's own sessions and tokens.
  /^(GET|POST|DELETE) \/v1\/user\/(sessions|tokens)/,
  // The API's version; URLs resolved to what the caller may read (a bad URL is a 400 for anyone).
  /^GET \/v1$/,
  /^(GET|POST) \/v1\/urls\//,
  // The organization's single sign-on providers, listed for its sign-in page before anyone signs in.
  /^GET \/v1\/orgs\/\{organizationId\}\/sso$/,
  // Removing a custom hostname of someone else's site removes nothing and answers as for a hostname
  // that has no claim (204, official); its claim stays (checked at the end).
  /^DELETE \/v1\/custom-hostnames\/\{hostname\}$/,
];

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  format?: string;
  minLength?: number;
  minimum?: number;
  minItems?: number;
  default?: unknown;
};

/**
 * The smallest instance of a request body schema that passes validation (required properties only),
 * so that an outsider's call gets past validation to authorization.
 */
function sample(schema: Schema | undefined): unknown {
  if (!schema) return {};
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return sample(alternatives.find((a) => a.type !== 'null') ?? alternatives[0]);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => sample(s) as object));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((key) => [key, sample(schema.properties?.[key])]));
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'string': {
      if (schema.format === 'email') return 'someone@example.com';
      if (schema.format === 'uri') return 'https://example.com/x';
      if (schema.format === 'date-time') return '2026-01-01T00:00:00.000Z';
      return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
    }
    default:
      return schema.properties ? sample({ ...schema, type: 'object' }) : {};
  }
}

/**
 * Bodies the sampler cannot make valid (a property whose value must name something real, or one of
 * several fields required together), written by hand.
 */
const VALID_BODIES: Record<string, unknown> = {
  'POST /v1/spaces/{spaceId}/permissions': { role: 'read', users: ['nope'] },
  'POST /v1/collections/{collectionId}/permissions': { role: 'read', users: ['nope'] },
  'POST /v1/collections/{collectionId}/move': { parent: null },
  'POST /v1/spaces/{spaceId}/move': { parent: null },
  'POST /v1/orgs/{organizationId}/sites/{siteId}/redirects': {
    source: '/old/page',
    destination: { kind: 'external', url: 'https://example.com/' },
  },
  'PUT /v1/orgs/{organizationId}/sites/{siteId}/redirects': {
    redirects: [{ source: '/old/page', destination: { kind: 'external', url: 'https://example.com/' } }],
  },
  'PATCH /v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}': { active: false },
  'PATCH /v1/users/{userId}': { displayName: 'x' },
  'POST /v1/orgs/{organizationId}/sites/{siteId}/permissions': { role: 'read', users: ['nope'] },
  'POST /v1/orgs/{organizationId}/storage/upload': {
    file: { name: 'logo.png', type: 'image/png', size: 100 },
    kind: 'organization_file',
  },
};

/** Required query parameters of reads, so that they too get past validation. */
const VALID_QUERIES: Record<string, string> = {
  'GET /v1/orgs/{organizationId}/sites/{siteId}/redirect': '?source=/old/page',
  'GET /v1/orgs/{organizationId}/ask/stream': '?query=what',
  'GET /v1/orgs/{organizationId}/search': '?query=what',
  'GET /v1/spaces/{spaceId}/search': '?query=what',
  'GET /v1/spaces/{spaceId}/embed': '?url=https%3A%2F%2Fexample.com%2F',
};

describe('outsiders', () => {
  it('see and change nothing: every operation on real resources of another organization is a 404', async () => {
    const { org, real, doc } = await fixture();
    const outsider = await h.user();
    const wrong: string[] = [];
    let checked = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const signature = `${method.toUpperCase()} ${template}`;
        if (OPEN_TO_ALL.some((re) => re.test(signature)) || template.startsWith('/v1/ads/')) continue;
        const url = fill(template, org.id, (name) => real[name] ?? 'nope');
        const bodySchema = (operation as { requestBody?: { content?: Record<string, { schema?: Schema }> } })
          .requestBody?.content?.['application/json']?.schema;
        // A valid body, so that the answer comes from authorization, not from validation.
        const body =
          method === 'get' || method === 'delete' ? undefined : (VALID_BODIES[signature] ?? sample(bodySchema));
        checked++;
        const res = await outsider.client.request(method.toUpperCase(), url + (VALID_QUERIES[signature] ?? ''), body);
        if (res.status !== 404) wrong.push(`${signature} ${JSON.stringify(body)} -> ${res.status}`);
      }
    }
    expect(checked).toBeGreaterThan(120);
    expect(wrong).toEqual([]);
    // The organization is still intact for its admin, its custom hostname claim too.
    expect((await org.admin.client.get(`/v1/orgs/${org.id}`)).status).toBe(200);
    expect((await org.admin.client.get(`/v1/custom-hostnames/${real.hostname}`)).status).toBe(200);
  }, 120_000);
});
