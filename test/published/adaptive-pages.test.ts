/**
 * Adaptive content of pages and header items: a page whose `condition` does not hold for the visitor
 * (nor its subpages) is gone from every surface of the published site — the page and its Markdown
 * (404), the navigation and links to it, the search box, the answers, llms.txt, llms-full.txt and the
 * sitemap — and a header item whose condition fails is not rendered; a visitor for whom they hold
 * sees them all. Claims come from the visitor token (visitor-auth site) or from `visitor.*` (public).
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type Response } from '../helpers/app.js';
import { edit, type PublishedWorld, publishedWorld } from '../helpers/published.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 120_000);
afterAll(async () => h?.close());

const get = (url: string, headers: Record<string, string> = {}) => h.anonymous.request('GET', url, undefined, headers);
const cookieOf = (res: { headers: Record<string, unknown> }) =>
  String(res.headers['set-cookie'] ?? '').split(';')[0] ?? '';
const text = (res: Response) => (typeof res.body === 'string' ? res.body : JSON.stringify(res.body));

/**
 * Gates the Installation page and a new "Pro features" page (with a subpage) of the guide behind
 * `condition`, and adds two header items to the site: one behind `condition`, one for everyone.
 */
async function gate(w: PublishedWorld, condition: string): Promise<void> {
  await edit(w.admin.client, w.guide, [
    () => [
      { operation: 'update_page', page: w.pages.install, condition },
      {
        operation: 'insert_page',
        ref: 'pro',
        title: 'Pro features',
        condition,
        document: { markdown: 'What the plan adds.' },
      },
      {
        operation: 'insert_page',
        into: 'pro',
        title: 'Quasar tuning',
        document: { markdown: 'Tune the quasar engine for throughput.' },
      },
    ],
  ]);
  const put = await w.admin.client.put(`${w.api}/customization`, {
    header: {
      preset: 'default',
      links: [
        { title: 'Pro console', to: { kind: 'url', url: 'https://console.example.com/' }, links: [], condition },
        { title: 'Status page', to: { kind: 'url', url: 'https://status.example.com/' }, links: [] },
      ],
    },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
}

/** Every surface, read by one visitor (`read` adds their credentials to a path). */
async function surfaces(read: (path: string) => Promise<Response>) {
  return {
    home: await read(''),
    page: await read('/pro-features'),
    subpage: await read('/pro-features/quasar-tuning'),
    markdown: await read('/pro-features/quasar-tuning.md'),
    install: await read('/installation'),
    search: await read('/~search.json?q=quasar'),
    searchPage: await read('/~search?q=quasar'),
    ask: await read('/~ask?q=quasar+engine'),
    llms: await read('/llms.txt'),
    llmsFull: await read('/llms-full.txt'),
  };
}

function expectHidden(w: PublishedWorld, s: Awaited<ReturnType<typeof surfaces>>): void {
  expect(s.home.status).toBe(200);
  for (const res of [s.page, s.subpage, s.markdown, s.install]) expect(res.status).toBe(404);
  // Not in the navigation, not linked from the first page (its link to ./install.md leads nowhere), not in the header.
  expect(text(s.home)).not.toContain(`href="${w.base}/pro-features"`);
  expect(text(s.home)).not.toContain(`href="${w.base}/installation"`);
  expect(text(s.home)).not.toContain('Pro console');
  expect(text(s.home)).toContain('Status page');
  expect(s.search.body.results).toEqual([]);
  expect(text(s.searchPage)).toContain('No results.');
  // The question is echoed; the page's words (its "throughput") are not part of the answer.
  expect(text(s.ask)).not.toContain('throughput');
  for (const res of [s.llms, s.llmsFull]) {
    expect(res.status).toBe(200);
    expect(text(res)).toContain('Getting started');
    expect(text(res)).not.toContain('Pro features');
    expect(text(res)).not.toContain('Installation');
    expect(text(res)).not.toContain('quasar');
  }
}

function expectShown(w: PublishedWorld, s: Awaited<ReturnType<typeof surfaces>>): void {
  for (const res of [s.home, s.page, s.subpage, s.markdown, s.install]) expect(res.status).toBe(200);
  expect(text(s.home)).toContain(`href="${w.base}/pro-features"`);
  expect(text(s.home)).toContain(`href="${w.base}/installation"`);
  expect(text(s.home)).toContain('<a href="https://console.example.com/"');
  expect(text(s.home)).toContain('Status page');
  expect(text(s.markdown)).toContain('Tune the quasar engine');
  expect(s.search.body.results).toEqual([
    expect.objectContaining({ title: 'Quasar tuning', href: `${w.base}/pro-features/quasar-tuning` }),
  ]);
  expect(text(s.searchPage)).toContain(`href="${w.base}/pro-features/quasar-tuning"`);
  expect(text(s.ask)).toContain('throughput');
  expect(text(s.llms)).toContain('[Pro features]');
  expect(text(s.llms)).toContain('[Installation]');
  expect(text(s.llmsFull)).toContain('Tune the quasar engine');
}

describe('adaptive pages and header items', () => {
  it('on a visitor-auth site: hidden from a visitor whose token does not qualify, shown to one whose does', async () => {
    const w = await publishedWorld(h, 'visitor-auth');
    await gate(w, 'visitor.claims.plan === "pro"');
    const key = (await w.admin.client.get(`${w.api}/publishing/auth`)).body.privateKey as string;
    const visitor = async (claims: Record<string, unknown>) => {
      const jwt = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(key));
      const entry = await get(`${w.base}?jwt_token=${jwt}`);
      expect(entry.status).toBe(302);
      const cookie = cookieOf(entry);
      return (path: string) => get(`${w.base}${path}`, { cookie });
    };
    // The qualifying visitor first: what was rendered for them must not be served to the other.
    const pro = await surfaces(await visitor({ plan: 'pro' }));
    expectShown(w, pro);
    expect(pro.home.headers['cache-control']).toBe('private, no-cache');
    expectHidden(w, await surfaces(await visitor({ plan: 'free' })));
    expectHidden(w, await surfaces(await visitor({})));
  });

  it('on a public site: the sitemap too; unsigned visitor.* claims show them; removing the condition shows them to all', async () => {
    const w = await publishedWorld(h);
    await gate(w, 'visitor.claims.unsigned.beta === true');
    const anyone = await surfaces((path) => get(`${w.base}${path}`));
    expectHidden(w, anyone);
    expect(anyone.home.headers['cache-control']).toBe('private, no-cache');
    const sitemap = text(await get(`${w.base}/sitemap.xml`));
    expect(sitemap).toContain(`${w.base}/deployment</loc>`);
    expect(sitemap).not.toContain('/installation<');
    expect(sitemap).not.toContain('/pro-features');

    const entry = await get(`${w.base}?visitor.beta=true`);
    const cookie = cookieOf(entry);
    expectShown(w, await surfaces((path) => get(`${w.base}${path}`, { cookie })));
    const betaSitemap = text(await get(`${w.base}/sitemap.xml`, { cookie }));
    expect(betaSitemap).toContain(`${w.base}/installation</loc>`);
    expect(betaSitemap).toContain(`${w.base}/pro-features/quasar-tuning</loc>`);

    // An empty condition removes it: the pages are everyone's again.
    await edit(w.admin.client, w.guide, [() => [{ operation: 'update_page', page: w.pages.install, condition: '' }]]);
    expect((await get(`${w.base}/installation`)).status).toBe(200);
    expect((await get(`${w.base}/pro-features`)).status).toBe(404);
  });

  it('a header item condition that is not an expression is refused (400), as for sections', async () => {
    const w = await publishedWorld(h);
    const item = { title: 'Pro', to: { kind: 'url', url: 'https://pro.example.com/' }, links: [] };
    const res = await w.admin.client.put(`${w.api}/customization`, {
      header: { preset: 'default', links: [item, { ...item, condition: 'visitor.claims.plan ===' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^body\/header\/links\/1\/condition is not a valid expression: /);
    const empty = await w.admin.client.put(`${w.api}/customization`, {
      header: { preset: 'default', links: [{ ...item, condition: '' }] },
    });
    expect(empty.status).toBe(200);
    expect((await get(w.base)).body).toContain('https://pro.example.com/');
  });
});
