/**
 * Visitor authentication: the `visitor-auth` row of the access table, and the official operations
 * that manage the key and the login URL (get, update, regenerate).
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { type PublishedWorld, publishedWorld } from '../helpers/published.js';

let h: Harness;
let w: PublishedWorld;
let auth: string;
beforeAll(async () => {
  h = await createHarness();
  w = await publishedWorld(h, 'visitor-auth');
  auth = `${w.api}/publishing/auth`;
}, 120_000);
afterAll(async () => h?.close());

const get = (url: string, headers: Record<string, string> = {}) => h.anonymous.request('GET', url, undefined, headers);

async function token(key: string, expiresIn = '1h', claims: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(key));
}

describe('publishing auth operations', () => {
  it('an admin reads the settings (made with a key on first read), changes the login URL, regenerates the key', async () => {
    const first = await w.admin.client.get(auth);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: expect.any(String) });
    expect(first.body.privateKey.length).toBeGreaterThanOrEqual(32);
    expect((await w.admin.client.get(auth)).body.privateKey).toBe(first.body.privateKey);

    const updated = await w.admin.client.patch(auth, {
      backend: 'custom',
      fallbackURL: 'https://login.example.com/start',
      logoutURL: 'https://login.example.com/logout',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      fallbackURL: 'https://login.example.com/start',
      logoutURL: 'https://login.example.com/logout',
      privateKey: first.body.privateKey,
    });
    const unset = await w.admin.client.patch(auth, { backend: 'custom', logoutURL: null });
    expect(unset.body.logoutURL).toBeUndefined();
    expect(unset.body.fallbackURL).toBe('https://login.example.com/start');

    const regenerated = await w.admin.client.post(`${auth}/regenerate`);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.privateKey).not.toBe(first.body.privateKey);
    // The key is sealed at rest.
    const row = await h.db
      .selectFrom('site_publishing_auth')
      .selectAll()
      .where('site_id', '=', w.siteId)
      .executeTakeFirst();
    expect(row?.private_key).not.toContain(regenerated.body.privateKey);
  });

  it('refuses bad input, non-admins (403), outsiders (404) and tokens without the scope', async () => {
    expect((await w.admin.client.patch(auth, { backend: 'other' })).status).toBe(400);
    expect((await w.admin.client.patch(auth, { backend: 'custom', fallbackURL: 'not a url' })).status).toBe(400);
    expect((await w.admin.client.patch(auth, {})).status).toBe(400);
    const editor = await h.member(w.orgId, 'create');
    expect((await editor.client.get(auth)).status).toBe(403);
    expect((await editor.client.post(`${auth}/regenerate`)).status).toBe(403);
    const outsider = await h.user();
    expect((await outsider.client.get(auth)).status).toBe(404);
    const scoped = await h.member(w.orgId, 'admin', { scopes: ['site:read'] });
    expect((await scoped.client.get(auth)).status).toBe(403);
    const reader = await h.member(w.orgId, 'admin', { scopes: ['site:auth:read'] });
    expect((await reader.client.get(auth)).status).toBe(200);
    expect((await reader.client.patch(auth, { backend: 'custom' })).status).toBe(403);
  });
});

describe('visitor-auth access', () => {
  it('a JWT signed with the site key opens it (query, then cookie); wrong, expired or missing tokens do not', async () => {
    await w.admin.client.patch(auth, { backend: 'custom', fallbackURL: null });
    const key = (await w.admin.client.get(auth)).body.privateKey as string;

    // No token, no login URL: 401 with nothing of the site.
    const none = await get(`${w.base}/installation`);
    expect(none.status).toBe(401);
    expect(none.body).not.toContain('Acme');

    const valid = await token(key, '1h', { sub: 'visitor-1' });
    const first = await get(`${w.base}/installation?jwt_token=${valid}`);
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe(`${w.base}/installation`);
    const cookie = first.headers['set-cookie'] as string;
    expect(cookie).toContain(`bindery_visitor_${w.siteId}=`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toMatch(/Max-Age=(3[0-5]\d\d|3600)/);
    const pair = cookie.split(';')[0] as string;
    const page = await get(`${w.base}/installation`, { cookie: pair });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1 class="page-title">Installation</h1>');
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.headers['x-robots-tag']).toBe('noindex');

    const wrong = await token('another-key-that-is-long-enough-0123456789');
    expect((await get(`${w.base}?jwt_token=${wrong}`)).status).toBe(401);
    expect((await get(w.base, { cookie: `bindery_visitor_${w.siteId}=${wrong}` })).status).toBe(401);
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(key));
    expect((await get(`${w.base}?jwt_token=${expired}`)).status).toBe(401);
    expect((await get(`${w.base}?jwt_token=garbage`)).status).toBe(401);

    // Regenerating the key shuts out the tokens signed with the old one.
    await w.admin.client.post(`${auth}/regenerate`);
    expect((await get(`${w.base}/installation`, { cookie: pair })).status).toBe(401);
  });

  it('with a login URL, a visitor without a valid token is sent there with where to come back', async () => {
    await w.admin.client.patch(auth, { backend: 'custom', fallbackURL: 'https://login.example.com/start?app=docs' });
    const res = await get(`${w.base}/deployment/docker`);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.location as string);
    expect(location.origin + location.pathname).toBe('https://login.example.com/start');
    expect(location.searchParams.get('app')).toBe('docs');
    expect(location.searchParams.get('location')).toBe(`${w.siteUrl}/deployment/docker`);
  });
});
