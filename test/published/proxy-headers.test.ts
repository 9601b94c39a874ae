/**
 * `X-Forwarded-Host` and `X-Forwarded-Proto` are believed only from a proxy `TRUST_PROXY` trusts
 * (the test requests come from 127.0.0.1): from anyone else they cannot make a site answer on the
 * API's host, drop the `Secure` flag of its cookies, or name another origin in its pages. The origin
 * of a site on its own host never carries the request's port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { type PublishedWorld, publishedWorld } from '../helpers/published.js';

/** The proxy's host: its organization's own (an operator gives it), one per world. */
let HOST = '';

async function world(h: Harness): Promise<{ w: PublishedWorld; shareKey: string }> {
  const w = await publishedWorld(h, 'share-link');
  HOST = `docs-${w.orgId.toLowerCase()}.proxied.test`;
  await h.db.updateTable('organizations').set({ custom_hostname: HOST }).where('id', '=', w.orgId).execute();
  const link = await w.admin.client.post(`${w.api}/share-links`, { name: 'Readers' });
  expect(link.status).toBe(201);
  const proxied = await w.admin.client.patch(w.api, { proxy: `${HOST}/${w.siteId}` });
  expect(proxied.status).toBe(200);
  return { w, shareKey: new URL(link.body.urls.published).searchParams.get('share') as string };
}

const get = (h: Harness, url: string, headers: Record<string, string>) =>
  h.anonymous.request('GET', url, undefined, headers);

describe('without TRUST_PROXY', () => {
  let h: Harness;
  let w: PublishedWorld;
  let shareKey: string;
  beforeAll(async () => {
    h = await createHarness();
    ({ w, shareKey } = await world(h));
  }, 120_000);
  afterAll(async () => h?.close());

  it("X-Forwarded-Host does not make the API's host answer as a site", async () => {
    const res = await get(h, `/${w.siteId}/installation?share=${shareKey}`, {
      host: 'bindery.test',
      'x-forwarded-host': HOST,
    });
    expect(res.status).toBe(404);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(String(res.headers['content-type'])).toContain('application/json'); // the API's 404
  });

  it('X-Forwarded-Proto: http does not drop the Secure flag of the cookie on an HTTPS site', async () => {
    const res = await get(h, `/${w.siteId}?share=${shareKey}`, { host: HOST, 'x-forwarded-proto': 'http' });
    expect(res.status).toBe(302);
    expect(String(res.headers['set-cookie'])).toMatch(/; Secure$/);
  });

  it("the site's origin is its hostname: neither a port of the request nor X-Forwarded-* changes its pages", async () => {
    const cookie = `bindery_share_${w.siteId}=${shareKey}`;
    const canonical = `<link rel="canonical" href="https://${HOST}/${w.siteId}/installation">`;
    const variants: Record<string, string>[] = [
      { host: HOST },
      { host: `${HOST}:8443` },
      { host: `${HOST.toUpperCase()}:1` },
      { host: HOST, 'x-forwarded-proto': 'http', 'x-forwarded-host': 'evil.example' },
    ];
    for (const headers of variants) {
      const res = await get(h, `/${w.siteId}/installation`, { ...headers, cookie });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.body, JSON.stringify(headers)).toContain(canonical);
      expect(res.body).not.toContain('evil.example');
      expect(res.body).not.toContain(':8443');
    }
  });
});

describe('with TRUST_PROXY naming the peer', () => {
  let h: Harness;
  let w: PublishedWorld;
  let shareKey: string;
  beforeAll(async () => {
    h = await createHarness({ env: { TRUST_PROXY: '127.0.0.1' } });
    ({ w, shareKey } = await world(h));
  }, 120_000);
  afterAll(async () => h?.close());

  it("the proxy's X-Forwarded-Host and X-Forwarded-Proto are believed", async () => {
    const res = await get(h, `/${w.siteId}?share=${shareKey}`, {
      host: 'internal:3000',
      'x-forwarded-host': HOST,
      'x-forwarded-proto': 'http',
    });
    expect(res.status).toBe(302);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`bindery_share_${w.siteId}=`);
    expect(cookie).not.toContain('Secure');
    const page = await get(h, `/${w.siteId}/installation`, {
      host: 'internal:3000',
      'x-forwarded-host': HOST,
      'x-forwarded-proto': 'http',
      cookie: cookie.split(';')[0] as string,
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<link rel="canonical" href="http://${HOST}/${w.siteId}/installation">`);
  });
});

describe('with TRUST_PROXY naming another address', () => {
  let h: Harness;
  let w: PublishedWorld;
  beforeAll(async () => {
    h = await createHarness({ env: { TRUST_PROXY: '10.0.0.1' } });
    ({ w } = await world(h));
  }, 120_000);
  afterAll(async () => h?.close());

  it('X-Forwarded-Host from an untrusted peer is ignored', async () => {
    const res = await get(h, `/${w.siteId}`, { host: 'bindery.test', 'x-forwarded-host': HOST });
    expect(res.status).toBe(404);
    expect(String(res.headers['content-type'])).toContain('application/json');
  });
});
