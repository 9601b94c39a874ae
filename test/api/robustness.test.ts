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
  const real: Record<string, string> = {
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
];

describe('outsiders', () => {
  it('see and change nothing: every operation on real resources of another organization is refused', async () => {
    const { org, real, doc } = await fixture();
    const outsider = await h.user();
    const leaks: string[] = [];
    let checked = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const signature = `${method.toUpperCase()} ${template}`;
        if (OPEN_TO_ALL.some((re) => re.test(signature)) || template.startsWith('/v1/ads/')) continue;
        const url = fill(template, org.id, (name) => real[name] ?? 'nope');
        checked++;
        const res = await outsider.client.request(
          method.toUpperCase(),
          url,
          method === 'get' || method === 'delete' ? undefined : {},
        );
        if (res.status < 400 || res.status === 500) leaks.push(`${signature} -> ${res.status}`);
      }
    }
    expect(checked).toBeGreaterThan(120);
    expect(leaks).toEqual([]);
    // The organization is still intact for its admin.
    expect((await org.admin.client.get(`/v1/orgs/${org.id}`)).status).toBe(200);
  }, 120_000);
});
