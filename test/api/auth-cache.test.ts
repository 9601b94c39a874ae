/**
 * The token and membership caches (core/cache.ts) never outlive a change made in this process:
 * a revoked or expired token and a removed or demoted member are refused on the very next request,
 * even right after a request that cached them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, revokeToken } from '../../src/core/tokens.js';
import { Client, createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('token cache', () => {
  it('refuses a revoked token on the next request', async () => {
    const { user } = await h.user();
    const { id, token } = await createToken(h.db, user.id);
    const client = new Client(h.app, token);
    expect((await client.get('/v1/user')).status).toBe(200);
    expect((await client.get('/v1/user')).status).toBe(200);
    expect(await revokeToken(h.db, id)).toBe(true);
    const refused = await client.get('/v1/user');
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/revoked/);
  });

  it('refuses a token once it expires, though it was cached while valid', async () => {
    const { user } = await h.user();
    const { token } = await createToken(h.db, user.id, { expiresAt: new Date(Date.now() + 1_500) });
    const client = new Client(h.app, token);
    expect((await client.get('/v1/user')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const refused = await client.get('/v1/user');
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/expired/);
  });

  it('keeps other tokens of the user working when one is revoked', async () => {
    const { user } = await h.user();
    const first = await createToken(h.db, user.id);
    const second = await createToken(h.db, user.id);
    const a = new Client(h.app, first.token);
    const b = new Client(h.app, second.token);
    expect((await a.get('/v1/user')).status).toBe(200);
    expect((await b.get('/v1/user')).status).toBe(200);
    await revokeToken(h.db, first.id);
    expect((await a.get('/v1/user')).status).toBe(401);
    expect((await b.get('/v1/user')).status).toBe(200);
  });
});

describe('membership cache', () => {
  it('refuses a removed member on the next request', async () => {
    const org = await h.org();
    const member = await h.member(org.id, 'read');
    expect((await member.client.get(`/v1/orgs/${org.id}`)).status).toBe(200);
    expect((await org.admin.client.delete(`/v1/orgs/${org.id}/members/${member.user.id}`)).status).toBe(204);
    expect((await member.client.get(`/v1/orgs/${org.id}`)).status).toBe(404);
    expect((await member.client.get(`/v1/orgs/${org.id}/members`)).status).toBe(404);
  });

  it('applies a role change on the next request, up and down', async () => {
    const org = await h.org();
    const member = await h.member(org.id, 'read');
    const rename = () => member.client.patch(`/v1/orgs/${org.id}`, { title: 'Renamed' });
    expect((await rename()).status).toBe(403);
    expect(
      (await org.admin.client.patch(`/v1/orgs/${org.id}/members/${member.user.id}`, { role: 'admin' })).status,
    ).toBe(200);
    expect((await rename()).status).toBe(200);
    expect(
      (await org.admin.client.patch(`/v1/orgs/${org.id}/members/${member.user.id}`, { role: 'read' })).status,
    ).toBe(200);
    expect((await rename()).status).toBe(403);
    // A guest (no role) does not see the organization.
    expect((await org.admin.client.patch(`/v1/orgs/${org.id}/members/${member.user.id}`, { role: null })).status).toBe(
      200,
    );
    expect((await member.client.get(`/v1/orgs/${org.id}`)).status).toBe(404);
  });

  it('admits an invited user right after a refused request', async () => {
    const org = await h.org();
    const stranger = await h.user();
    expect((await stranger.client.get(`/v1/orgs/${org.id}`)).status).toBe(404);
    const invited = await org.admin.client.post(`/v1/orgs/${org.id}/invites`, {
      emails: [stranger.user.email],
      role: 'read',
    });
    expect(invited.status).toBe(200);
    expect((await stranger.client.get(`/v1/orgs/${org.id}`)).status).toBe(200);
  });

  it('refuses a member who left on their own', async () => {
    const org = await h.org();
    const member = await h.member(org.id, 'edit');
    expect((await member.client.get(`/v1/orgs/${org.id}`)).status).toBe(200);
    expect((await member.client.delete(`/v1/orgs/${org.id}/members/${member.user.id}`)).status).toBe(204);
    expect((await member.client.get(`/v1/orgs/${org.id}`)).status).toBe(404);
  });

  it('counts members again after an invite, a removal and a role change', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const count = async (query = '') => (await c.get(`/v1/orgs/${org.id}/members?limit=1${query}`)).body.count;
    expect(await count()).toBe(1);
    expect(await count('&role=read')).toBe(0);
    const invited = await c.post(`/v1/orgs/${org.id}/invites`, {
      emails: ['a@count.test', 'b@count.test'],
      role: 'read',
    });
    expect(invited.body.invited).toBe(2);
    expect(await count()).toBe(3);
    expect(await count('&role=read')).toBe(2);
    const [first] = invited.body.users as string[];
    expect((await c.patch(`/v1/orgs/${org.id}/members/${first}`, { role: 'edit' })).status).toBe(200);
    expect(await count('&role=read')).toBe(1);
    expect((await c.delete(`/v1/orgs/${org.id}/members/${first}`)).status).toBe(204);
    expect(await count()).toBe(2);
    expect(await count('&role=edit')).toBe(0);
  });
});
