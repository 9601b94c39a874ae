/**
 * A change request's preview drawn by the published site's renderer (src/published/change-preview.ts):
 * the site with the change request's content, for someone whose session may read the change
 * request, and a bare 404 for everyone else; the live site never shows unmerged content.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { PNG } from '../helpers/fixtures.js';
import { type PublishedWorld, publishedWorld } from '../helpers/published.js';
import { givePassword } from '../helpers/sessions.js';

let h: Harness;
let w: PublishedWorld;
let crId: string;
let draftPageId: string;
let adminCookie: string;
let outsiderCookie: string;
const SECRET = 'Unmerged sentence of the change request.';

/** Signs `email` in through the app's own endpoint; the session cookie for a Cookie header. */
async function sessionOf(email: string): Promise<string> {
  const res = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } });
  expect(res.statusCode, res.body).toBe(200);
  const line = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((l) => l.startsWith('bindery_session='));
  return (line as string).split(';')[0] as string;
}
const PASSWORD = 'correct horse battery';

const get = async (url: string, cookie?: string) => {
  const res = await h.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  return { status: res.statusCode, headers: res.headers, body: res.body };
};

beforeAll(async () => {
  h = await createHarness();
  w = await publishedWorld(h);
  const c = w.admin.client;
  const cr = await c.post(`/v1/spaces/${w.guide}/change-requests`, { subject: 'Preview me' });
  expect(cr.status).toBe(201);
  crId = cr.body.id;
  const changed = await c.post(`/v1/spaces/${w.guide}/change-requests/${crId}/content?compat=false`, {
    changes: [
      { operation: 'update_page', page: w.pages.start, document: { markdown: `# Changed\n\n${SECRET}` } },
      {
        operation: 'insert_files',
        files: [{ ref: 'shot', name: 'shot.png', contentType: 'image/png', base64: PNG.toString('base64') }],
      },
      { operation: 'insert_page', ref: 'draft', title: 'Draft page', document: { markdown: '![A shot](./shot)' } },
    ],
  });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  draftPageId = (changed.body.changes as Array<{ ref?: string; page?: string | { id: string } }>)
    .filter((x) => x.ref === 'draft')
    .map((x) => (typeof x.page === 'string' ? x.page : x.page?.id))[0] as string;
  await givePassword(h.db, w.admin.user.id, PASSWORD);
  adminCookie = await sessionOf(w.admin.user.email);
  const outsider = await h.user();
  await givePassword(h.db, outsider.user.id, PASSWORD);
  outsiderCookie = await sessionOf(outsider.user.email);
}, 120_000);
afterAll(async () => h?.close());

describe('a change request preview on its published site', () => {
  it('sends someone who may read the change request from its entry address to the page asked for', async () => {
    const entry = await get(`/sites/~changes/${crId}?page=${draftPageId}`, adminCookie);
    expect(entry.status).toBe(302);
    expect(entry.headers.location).toBe(`${w.base}/~changes/${crId}?page=${draftPageId}`);
    expect(entry.headers['cache-control']).toBe('private, no-store');
    const onSite = await get(entry.headers.location as string, adminCookie);
    expect(onSite.status).toBe(302);
    expect(onSite.headers.location).toBe(`${w.base}/~changes/${crId}/draft-page`);
  });

  it("draws the change request's content with the site's renderer, its links staying in the preview", async () => {
    const first = await get(`${w.base}/~changes/${crId}`, adminCookie);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(first.headers['cache-control']).toBe('private, no-store');
    expect(first.headers['x-robots-tag']).toBe('noindex');
    expect(first.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(first.body).toContain('<title>Getting started | Acme Docs</title>');
    expect(first.body).toContain(SECRET);
    // The navigation lists the new page, at its address in the preview.
    expect(first.body).toContain(`href="${w.base}/~changes/${crId}/draft-page"`);
    // Only the change request's site space: the other section's space is not shown.
    expect(first.body).not.toContain('Endpoints');

    const draft = await get(`${w.base}/~changes/${crId}/draft-page`, adminCookie);
    expect(draft.status).toBe(200);
    const src = new RegExp(
      `<img src="(${w.base}/~changes/${crId}/~files/${w.guide}/[^"]+/shot.png)" alt="A shot"`,
    ).exec(draft.body)?.[1];
    expect(src, draft.body).toBeDefined();
    const file = await get(src as string, adminCookie);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    // The live site has no such file.
    expect((await get((src as string).replace(`/~changes/${crId}`, ''))).status).toBe(404);
  });

  it('answers a bare 404 to anyone who may not read the change request', async () => {
    for (const cookie of [undefined, outsiderCookie, 'bindery_session=bs_forged']) {
      for (const url of [
        `/sites/~changes/${crId}`,
        `${w.base}/~changes/${crId}`,
        `${w.base}/~changes/${crId}/draft-page`,
        `${w.base}/~changes/${crId}/~files/${w.guide}/x/shot.png`,
      ]) {
        const res = await get(url, cookie);
        expect(res.status, `${url} ${cookie}`).toBe(404);
        expect(res.body).not.toContain(SECRET);
        expect(res.body).toContain('Page not found');
      }
    }
    // An unknown change request, or one on a site that does not show its space.
    expect((await get(`/sites/~changes/nope`, adminCookie)).status).toBe(404);
    expect((await get(`${w.base}/~changes/nope`, adminCookie)).status).toBe(404);
    const other = await w.admin.client.post(`/v1/orgs/${w.orgId}/sites`, {
      title: 'Reference only',
      spaces: [w.reference],
      visibility: 'public',
    });
    expect(other.status).toBe(201);
    const otherBase = `/sites/${w.orgId}/${other.body.basename}`;
    expect((await get(`${otherBase}/~changes/${crId}`, adminCookie)).status).toBe(404);
  });

  it('keeps the live pages as they were, for readers and for the writer alike', async () => {
    for (const cookie of [undefined, adminCookie]) {
      const live = await get(w.base, cookie);
      expect(live.status).toBe(200);
      expect(live.body).toContain('Welcome to');
      expect(live.body).not.toContain(SECRET);
      expect(live.body).not.toContain('Draft page');
      expect((await get(`${w.base}/draft-page`, cookie)).status).toBe(404);
    }
  });

  it('offers no search, feedback or machine-readable files, which read the live site', async () => {
    // No search box either (it would answer 404): on a page and on the preview's 404 page; the live site keeps it.
    for (const path of ['', '/no-such-page']) {
      const page = await get(`${w.base}/~changes/${crId}${path}`, adminCookie);
      expect(page.body).toContain('<header class="site-header"');
      expect(page.body).not.toContain('role="search"');
    }
    expect((await get(w.base)).body).toContain('role="search"');
    for (const rest of ['~search.json?q=Unmerged', '~search?q=Unmerged', 'sitemap.xml', 'llms.txt']) {
      const res = await get(`${w.base}/~changes/${crId}/${rest}`, adminCookie);
      expect(res.status, rest).toBe(404);
    }
    const feedback = await h.app.inject({
      method: 'POST',
      url: `${w.base}/~changes/${crId}/~feedback`,
      headers: { cookie: adminCookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'page=x&rating=good',
    });
    // No route takes a POST there: nothing is written.
    expect([404, 405]).toContain(feedback.statusCode);
  });

  it('never gets a heading without its data: the API refuses it (the format requires it; the editor once saved one)', async () => {
    const changed = await w.admin.client.post(`/v1/spaces/${w.guide}/change-requests/${crId}/content?compat=false`, {
      changes: [
        {
          operation: 'update_page',
          page: w.pages.deploy,
          document: {
            document: {
              object: 'document',
              data: {},
              nodes: [
                {
                  object: 'block',
                  type: 'heading-2',
                  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Bare heading', marks: [] }] }],
                },
              ],
            },
          },
        },
      ],
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(400);
    expect(changed.body.error.message).toContain('nodes/0/data: is required');
  });
});
