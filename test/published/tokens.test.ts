/**
 * The tokens that open a private site: a visitor token must say when it expires (`exp`), and a
 * preview link made for one site space opens that site space only.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { type PublishedWorld, publishedWorld } from '../helpers/published.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 120_000);
afterAll(async () => h?.close());

const get = (url: string, headers: Record<string, string> = {}) => h.anonymous.request('GET', url, undefined, headers);
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
const cookieOf = (res: { headers: Record<string, unknown> }) =>
  String(res.headers['set-cookie']).split(';')[0] as string;

describe('visitor tokens', () => {
  let w: PublishedWorld;
  let key: Uint8Array;
  beforeAll(async () => {
    w = await publishedWorld(h, 'visitor-auth');
    const auth = await w.admin.client.get(`${w.api}/publishing/auth`);
    key = new TextEncoder().encode(auth.body.privateKey as string);
  }, 120_000);

  const sign = (build: (jwt: SignJWT) => SignJWT) =>
    build(new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' })).sign(key);

  it('a token without `exp` opens nothing, neither in the address nor as the cookie', async () => {
    const endless = await sign((jwt) => jwt.setIssuedAt());
    const inAddress = await get(`${w.base}/installation?jwt_token=${endless}`);
    expect(inAddress.status).toBe(401);
    expect(inAddress.headers['set-cookie']).toBeUndefined();
    const asCookie = await get(`${w.base}/installation`, { cookie: `bindery_visitor_${w.siteId}=${endless}` });
    expect(asCookie.status).toBe(401);
    expect(asCookie.body).not.toContain('Installation');
  });

  it('a token with `exp` opens the site until then; an expired one does not', async () => {
    const valid = await sign((jwt) => jwt.setExpirationTime('10m'));
    const first = await get(`${w.base}/installation?jwt_token=${valid}`);
    expect(first.status).toBe(302);
    const maxAge = Number(/Max-Age=(\d+)/.exec(String(first.headers['set-cookie']))?.[1]);
    expect(maxAge).toBeGreaterThan(590);
    expect(maxAge).toBeLessThanOrEqual(600);
    expect((await get(`${w.base}/installation`, { cookie: cookieOf(first) })).status).toBe(200);
    const expired = await sign((jwt) => jwt.setExpirationTime(Math.floor(Date.now() / 1000) - 60));
    expect((await get(`${w.base}/installation?jwt_token=${expired}`)).status).toBe(401);
  });
});

describe('preview of one site space', () => {
  let w: PublishedWorld;
  let apiSiteSpace: string;
  beforeAll(async () => {
    w = await publishedWorld(h, 'share-link');
    expect((await w.admin.client.post(`${w.api}/unpublish`)).status).toBe(200);
    const structure = (await w.admin.client.get(`${w.api}/structure`)).body;
    apiSiteSpace = structure.structure[1].siteSpaces[0].id;
  }, 120_000);

  async function previewCookie(query: string): Promise<string> {
    const link = await w.admin.client.get(`${w.api}/publishing/preview${query}`);
    expect(link.status).toBe(200);
    const first = await get(pathOf(link.body.url));
    expect(first.status).toBe(302);
    return cookieOf(first);
  }

  it('opens that site space, and no other one', async () => {
    const cookie = await previewCookie(`?siteSpace=${apiSiteSpace}`);
    const api = await get(`${w.base}/api/endpoints`, { cookie });
    expect(api.status).toBe(200);
    expect(api.body).toContain('Every endpoint answers JSON.');
    expect(api.body).not.toContain('Getting started');

    const guide = await get(`${w.base}/installation`, { cookie });
    expect(guide.status).toBe(404);
    expect(guide.body).not.toContain('Install it.');
    expect((await get(`${w.base}/installation.md`, { cookie })).status).toBe(404);
    const llms = await get(`${w.base}/llms.txt`, { cookie });
    expect(llms.body).not.toContain('Installation');
    const search = await get(`${w.base}/~search.json?q=container`, { cookie });
    expect(JSON.stringify(search.body)).not.toContain('Docker');
  });

  it('a preview of the whole site opens every site space', async () => {
    const cookie = await previewCookie('');
    expect((await get(`${w.base}/installation`, { cookie })).status).toBe(200);
    expect((await get(`${w.base}/api/endpoints`, { cookie })).status).toBe(200);
  });

  it('a site space preview of a published site leaves what anyone may read open', async () => {
    const open = await publishedWorld(h, 'public');
    const structure = (await open.admin.client.get(`${open.api}/structure`)).body;
    const siteSpace = structure.structure[1].siteSpaces[0].id;
    const link = await open.admin.client.get(`${open.api}/publishing/preview?siteSpace=${siteSpace}`);
    const cookie = cookieOf(await get(pathOf(link.body.url)));
    expect((await get(`${open.base}/installation`, { cookie })).status).toBe(200);
  });
});
