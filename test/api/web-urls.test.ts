/**
 * URLs that people are sent to by the API's settings (an external redirect, the visitor-auth login
 * and logout pages) are web addresses: http(s) only, so no `javascript:` or `data:` URL is ever
 * stored to reach a `Location` or a link (400 naming the field).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const SCRIPT_URLS = ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,<script>1</script>', 'vbscript:x'];

async function site() {
  const world = await h.space('Web URLs');
  const created = await world.admin.client.post(`/v1/orgs/${world.orgId}/sites`, { title: 'Docs' });
  expect(created.status).toBe(201);
  return { client: world.admin.client, base: `/v1/orgs/${world.orgId}/sites/${created.body.id}` };
}

describe('web URLs in site settings', () => {
  it('an external redirect goes to an http(s) address only', async () => {
    const { client, base } = await site();
    for (const url of SCRIPT_URLS) {
      const res = await client.post(`${base}/redirects`, { source: '/old', destination: { kind: 'external', url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.message).toContain('body/destination');
    }
    expect((await client.get(`${base}/redirects`)).body.items).toEqual([]);
    const ok = await client.post(`${base}/redirects`, {
      source: '/old',
      destination: { kind: 'external', url: 'HTTPS://example.test/new' },
    });
    expect(ok.status).toBe(201);
    const changed = await client.patch(`${base}/redirects/${ok.body.id}`, {
      destination: { kind: 'external', url: 'javascript:alert(1)' },
    });
    expect(changed.status).toBe(400);
  });

  it('the visitor-auth fallback and logout pages are http(s) addresses only', async () => {
    const { client, base } = await site();
    for (const url of SCRIPT_URLS) {
      for (const field of ['fallbackURL', 'logoutURL']) {
        const res = await client.patch(`${base}/publishing/auth`, { backend: 'custom', [field]: url });
        expect(res.status, `${field} ${url}`).toBe(400);
        expect(res.body.error.message).toContain(`body/${field}`);
      }
    }
    const auth = await client.get(`${base}/publishing/auth`);
    expect(auth.body.fallbackURL).toBeUndefined();
    const ok = await client.patch(`${base}/publishing/auth`, {
      backend: 'custom',
      fallbackURL: 'https://login.example.test/',
      logoutURL: 'http://login.example.test/out',
    });
    expect(ok.status).toBe(200);
  });
});
