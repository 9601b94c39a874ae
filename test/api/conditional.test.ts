/**
 * Conditional requests through HTTP: ETags on reads, 304 for If-None-Match, If-Match on PATCH, PUT
 * and DELETE (412 with the envelope), and no lost update when editors race, in one process and (on
 * PostgreSQL) across two app instances.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import { Client, createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 120_000);
afterAll(async () => h.close());

async function createSpace(client: Client, organizationId: string, title = 'Handbook') {
  const res = await client.post(`/v1/orgs/${organizationId}/spaces`, { title });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function spaceTitle(spaceId: string) {
  const row = await h.db.selectFrom('spaces').select('title').where('id', '=', spaceId).executeTakeFirstOrThrow();
  return row.title;
}

describe('ETag and If-None-Match', () => {
  it('a single-resource GET has a strong ETag; If-None-Match gives 304 without a body', async () => {
    const org = await h.org();
    const client = org.admin.client;
    const first = await client.get(`/v1/orgs/${org.id}`);
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect((await client.get(`/v1/orgs/${org.id}`)).headers.etag).toBe(etag);

    for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await client.request('GET', `/v1/orgs/${org.id}`, undefined, { 'if-none-match': condition });
      expect(res.status).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
    }
    const stale = await client.request('GET', `/v1/orgs/${org.id}`, undefined, { 'if-none-match': '"stale"' });
    expect(stale.status).toBe(200);
    expect(stale.body.id).toBe(org.id);

    const head = await client.request('HEAD', `/v1/orgs/${org.id}`);
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(etag);
  });

  it('the ETag changes with the resource, and lists have one too', async () => {
    const org = await h.org();
    const client = org.admin.client;
    const before = (await client.get(`/v1/orgs/${org.id}`)).headers.etag;
    expect((await client.patch(`/v1/orgs/${org.id}`, { title: 'Renamed' })).status).toBe(200);
    const after = await client.request('GET', `/v1/orgs/${org.id}`, undefined, { 'if-none-match': String(before) });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before);

    const list = await client.get('/v1/orgs');
    expect(list.headers.etag).toMatch(/^"/);
  });

  it('errors carry no ETag', async () => {
    const org = await h.org();
    const res = await org.admin.client.get('/v1/spaces/no-such-space');
    expect(res.status).toBe(404);
    expect(res.headers.etag).toBeUndefined();
  });
});

describe('If-Match on writes', () => {
  it('two editors: the second, holding a stale ETag, gets 412 and changes nothing', async () => {
    const org = await h.org();
    const other = await h.member(org.id, 'admin');
    const spaceId = await createSpace(org.admin.client, org.id);
    const seenByA = (await org.admin.client.get(`/v1/spaces/${spaceId}`)).headers.etag as string;
    const seenByB = (await other.client.get(`/v1/spaces/${spaceId}`)).headers.etag as string;

    const a = await org.admin.client.request(
      'PATCH',
      `/v1/spaces/${spaceId}`,
      { title: 'From A' },
      { 'if-match': seenByA },
    );
    expect(a.status).toBe(200);
    const b = await other.client.request(
      'PATCH',
      `/v1/spaces/${spaceId}`,
      { title: 'From B' },
      { 'if-match': seenByB },
    );
    expect(b.status).toBe(412);
    expect(b.body).toEqual({ error: { code: 412, message: expect.stringMatching(/changed/) } });
    expect(await spaceTitle(spaceId)).toBe('From A');
    // The 412 tells B the current ETag: B can read again and retry on purpose.
    const current = (await other.client.get(`/v1/spaces/${spaceId}`)).headers.etag;
    expect(b.headers.etag).toBe(current);
    const retry = await other.client.request(
      'PATCH',
      `/v1/spaces/${spaceId}`,
      { title: 'From B' },
      { 'if-match': String(current) },
    );
    expect(retry.status).toBe(200);
    expect(await spaceTitle(spaceId)).toBe('From B');
  });

  it('compares strongly: a weak tag never matches; * and a list containing the tag do', async () => {
    const org = await h.org();
    const client = org.admin.client;
    const spaceId = await createSpace(client, org.id);
    const etag = (await client.get(`/v1/spaces/${spaceId}`)).headers.etag as string;
    const patch = (ifMatch: string, title: string) =>
      client.request('PATCH', `/v1/spaces/${spaceId}`, { title }, { 'if-match': ifMatch });
    expect((await patch(`W/${etag}`, 'Weak')).status).toBe(412);
    expect((await patch(`"nope", ${etag}`, 'Listed')).status).toBe(200);
    expect((await patch('*', 'Star')).status).toBe(200);
    expect(await spaceTitle(spaceId)).toBe('Star');
  });

  it('DELETE honours If-Match', async () => {
    const org = await h.org();
    const client = org.admin.client;
    const spaceId = await createSpace(client, org.id);
    const etag = (await client.get(`/v1/spaces/${spaceId}`)).headers.etag as string;
    expect((await client.patch(`/v1/spaces/${spaceId}`, { title: 'Changed meanwhile' })).status).toBe(200);
    const stale = await client.request('DELETE', `/v1/spaces/${spaceId}`, undefined, { 'if-match': etag });
    expect(stale.status).toBe(412);
    const fresh = (await client.get(`/v1/spaces/${spaceId}`)).headers.etag as string;
    const res = await client.request('DELETE', `/v1/spaces/${spaceId}`, undefined, { 'if-match': fresh });
    expect(res.status).toBe(204);
    const row = await h.db
      .selectFrom('spaces')
      .select('deleted_at')
      .where('id', '=', spaceId)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
  });

  it('PUT honours If-Match (site customization)', async () => {
    const org = await h.org();
    const client = org.admin.client;
    const site = await client.post(`/v1/orgs/${org.id}/sites`, { title: 'Docs' });
    expect(site.status).toBe(201);
    const url = `/v1/orgs/${org.id}/sites/${site.body.id}/customization`;
    const etag = (await client.get(url)).headers.etag as string;
    const body = { styling: { primaryColor: { light: '#112233', dark: '#445566' } } };
    expect((await client.request('PUT', url, body, { 'if-match': etag })).status).toBe(200);
    expect((await client.request('PUT', url, body, { 'if-match': etag })).status).toBe(412);
  });

  it('no current representation: If-Match fails (missing resource, or a path without a GET)', async () => {
    const org = await h.org();
    const client = org.admin.client;
    const gone = await client.request('PATCH', '/v1/spaces/no-such-space', { title: 'x' }, { 'if-match': '*' });
    expect(gone.status).toBe(412);
    expect(gone.body.error.code).toBe(412);
    // Without a precondition, the usual 404.
    expect((await client.patch('/v1/spaces/no-such-space', { title: 'x' })).status).toBe(404);
    // Site spaces have no GET of their own, so no ETag to match.
    const site = await client.post(`/v1/orgs/${org.id}/sites`, { title: 'Docs' });
    const res = await client.request(
      'PATCH',
      `/v1/orgs/${org.id}/sites/${site.body.id}/site-spaces/anything`,
      { path: 'x' },
      { 'if-match': '"abc"' },
    );
    expect(res.status).toBe(412);
    expect(res.body.error.message).toMatch(/no current representation/);
  });

  it('If-None-Match: * on a write to an existing resource is 412', async () => {
    const org = await h.org();
    const client = org.admin.client;
    const spaceId = await createSpace(client, org.id);
    const res = await client.request('PATCH', `/v1/spaces/${spaceId}`, { title: 'x' }, { 'if-none-match': '*' });
    expect(res.status).toBe(412);
    expect(await spaceTitle(spaceId)).toBe('Handbook');
  });

  it('racing editors with the same ETag: exactly one write lands, the others get 412', async () => {
    const org = await h.org();
    const client = org.admin.client;
    const spaceId = await createSpace(client, org.id);
    const etag = (await client.get(`/v1/spaces/${spaceId}`)).headers.etag as string;
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        client.request('PATCH', `/v1/spaces/${spaceId}`, { title: `Editor ${i}` }, { 'if-match': etag }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412]);
    const winner = results.find((r) => r.status === 200);
    expect(await spaceTitle(spaceId)).toBe(winner?.body.title);
  });
});

describe.runIf(inject('databaseUrl') !== null)('If-Match across processes (PostgreSQL)', () => {
  let second: App;
  beforeAll(async () => {
    second = await buildApp({ config: h.app.config, db: h.db, migrate: false, logger: false });
    await second.ready();
  }, 120_000);
  afterAll(async () => second?.close());

  it('racing editors on two app instances: exactly one write lands', async () => {
    const org = await h.org();
    const spaceId = await createSpace(org.admin.client, org.id);
    const etag = (await org.admin.client.get(`/v1/spaces/${spaceId}`)).headers.etag as string;
    const clients = [org.admin.client, new Client(second, org.admin.token)];
    const results = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((i) =>
        (clients[i % 2] as Client).request(
          'PATCH',
          `/v1/spaces/${spaceId}`,
          { title: `Editor ${i}` },
          { 'if-match': etag },
        ),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412, 412]);
  });
});
