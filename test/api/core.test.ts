/** Cross-cutting conventions: authentication, scopes, the error envelope, health, the OpenAPI document. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, revokeToken } from '../../src/core/tokens.js';
import { Client, createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('authentication', () => {
  it('401 with WWW-Authenticate when the token is missing', async () => {
    const res = await h.anonymous.get('/v1/user');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.body).toEqual({ error: { code: 401, message: expect.stringContaining('Authorization') } });
  });

  it('401 for an unknown token and a malformed header', async () => {
    expect((await new Client(h.app, 'bnd_nope').get('/v1/user')).status).toBe(401);
    const res = await h.anonymous.request('GET', '/v1/user', undefined, { authorization: 'Basic abc' });
    expect(res.status).toBe(401);
  });

  it('401 for a revoked token', async () => {
    const u = await h.user();
    const created = await createToken(h.db, u.user.id);
    const client = new Client(h.app, created.token);
    expect((await client.get('/v1/user')).status).toBe(200);
    expect(await revokeToken(h.db, created.id)).toBe(true);
    const res = await client.get('/v1/user');
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/revoked/);
    expect(await revokeToken(h.db, 'no-such-token')).toBe(false);
  });

  it('401 for an expired token', async () => {
    const u = await h.user();
    const created = await createToken(h.db, u.user.id, { expiresAt: new Date(Date.now() - 1000) });
    const res = await new Client(h.app, created.token).get('/v1/user');
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/expired/);
  });

  it('returns the authenticated user', async () => {
    const u = await h.user({ name: 'Ada Lovelace' });
    const res = await u.client.get('/v1/user');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'user', id: u.user.id, displayName: 'Ada Lovelace', email: u.user.email });
    expect(res.body.urls.location).toBe(`http://bindery.test/v1/users/${u.user.id}`);
  });
});

describe('scopes', () => {
  it('a token without the needed scope gets 403, with it 200', async () => {
    const org = await h.org();
    const limited = await h.member(org.id, 'admin', { scopes: ['user:read'] });
    const res = await limited.client.get(`/v1/orgs/${org.id}`);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('organization:read');
    expect((await limited.client.get('/v1/user')).status).toBe(200);
  });

  it('a write scope also grants the read scope of the same resource', async () => {
    const org = await h.org();
    const writer = await h.member(org.id, 'admin', { scopes: ['organization:write'] });
    expect((await writer.client.get(`/v1/orgs/${org.id}`)).status).toBe(200);
    expect((await writer.client.get(`/v1/orgs/${org.id}/members`)).status).toBe(403);
  });
});

describe('error envelope', () => {
  it('unknown route is a JSON 404', async () => {
    const res = await h.anonymous.get('/v1/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 404, message: expect.any(String) } });
  });

  it('wrong method is a 405 with Allow', async () => {
    const org = await h.org();
    const res = await org.admin.client.delete('/v1/orgs');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toContain('GET');
    expect(res.body.error.code).toBe(405);
  });

  it('malformed JSON is a 400', async () => {
    const org = await h.org();
    const res = await h.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${org.id}`,
      headers: { authorization: `Bearer ${org.admin.token}`, 'content-type': 'application/json' },
      payload: '{"title": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 400, message: expect.any(String) } });
  });

  it('a body over the limit is a 413', async () => {
    const org = await h.org();
    const res = await h.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${org.id}`,
      headers: { authorization: `Bearer ${org.admin.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'x'.repeat(h.app.config.bodyLimit + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe(413);
  });

  it('validation errors name the field', async () => {
    const org = await h.org();
    const res = await org.admin.client.patch(`/v1/orgs/${org.id}`, { title: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/title/);
    const unknown = await org.admin.client.patch(`/v1/orgs/${org.id}`, { colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/colour/);
  });

  it('an unsupported content type is a 415', async () => {
    const org = await h.org();
    const res = await h.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${org.id}`,
      headers: { authorization: `Bearer ${org.admin.token}`, 'content-type': 'text/csv' },
      payload: 'a,b',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe(415);
  });

  it('paging cursors that were not issued by the server are a 400', async () => {
    const org = await h.org();
    const res = await org.admin.client.get(`/v1/orgs/${org.id}/members?page=garbage`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/page/);
  });

  it('limit is bounded to 0..1000', async () => {
    const org = await h.org();
    const c = org.admin.client;
    expect((await c.get(`/v1/orgs/${org.id}/members?limit=-1`)).status).toBe(400);
    expect((await c.get(`/v1/orgs/${org.id}/members?limit=1001`)).status).toBe(400);
    expect((await c.get(`/v1/orgs/${org.id}/members?limit=1000`)).status).toBe(200);
    const zero = await c.get(`/v1/orgs/${org.id}/members?limit=0`);
    expect(zero.status).toBe(200);
    expect(zero.body).toEqual({ items: [], count: 1 });
  });
});

describe('service endpoints', () => {
  it('health and readiness', async () => {
    expect((await h.anonymous.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await h.anonymous.get('/readyz')).status).toBe(200);
  });

  it('serves its OpenAPI 3.1 document with every route and a reference page', async () => {
    const res = await h.anonymous.get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/v1/orgs', '/v1/orgs/{organizationId}/members', '/v1/orgs/{organizationId}/teams']),
    );
    expect(res.body.paths['/v1/orgs/{organizationId}'].get.operationId).toBe('getOrganizationById');
    const page = await h.anonymous.get('/docs/');
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toContain('text/html');
  });

  it('echoes a request id', async () => {
    const res = await h.anonymous.request('GET', '/healthz', undefined, { 'x-request-id': 'abc123' });
    expect(res.headers['x-request-id']).toBe('abc123');
  });
});

describe('typed JSON bodies', () => {
  it('keeps null and "" apart and does not coerce types in bodies (queries are still coerced)', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const space = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'S', emoji: 'x' })).body;
    await c.patch(`/v1/spaces/${space.id}`, { emoji: null, language: null });
    const row = await h.db
      .selectFrom('spaces')
      .select(['emoji', 'language'])
      .where('id', '=', space.id)
      .executeTakeFirst();
    expect(row).toEqual({ emoji: null, language: null });
    expect((await c.patch(`/v1/orgs/${org.id}`, { sso: 'true' })).status).toBe(400);
    expect((await c.get(`/v1/orgs/${org.id}/members?limit=5`)).status).toBe(200);
  });
});

describe('cursors', () => {
  it('a well-formed cursor with values of the wrong type is a 400, not an empty page', async () => {
    const org = await h.org();
    const forged = Buffer.from(JSON.stringify([1, 2])).toString('base64url');
    const res = await org.admin.client.get(`/v1/orgs/${org.id}/members?page=${forged}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('page');
  });
});
