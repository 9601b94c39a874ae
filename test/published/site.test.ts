/**
 * The reader-facing site: pages, navigation, customization, Markdown and machine files, redirects,
 * hosts, and the render cache (ETags, invalidation by merges, customization, structure changes and
 * by other processes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { PNG } from '../helpers/fixtures.js';
import { edit, type PublishedWorld, publishedWorld } from '../helpers/published.js';

let h: Harness;
let w: PublishedWorld;
beforeAll(async () => {
  h = await createHarness();
  w = await publishedWorld(h);
}, 120_000);
afterAll(async () => h?.close());

const get = (url: string, headers: Record<string, string> = {}) => h.anonymous.request('GET', url, undefined, headers);

/** The text of the first element of `html` matching a (simple) opening-tag pattern. */
const count = (html: string, needle: string) => html.split(needle).length - 1;

describe('pages', () => {
  it('serves the default site space first page at the site URL the API gives, with every block rendered', async () => {
    expect(w.siteUrl).toBe(`http://bindery.test/sites/${w.orgId}/acme-docs`);
    const res = await get(w.base);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.body as string;
    expect(html).toContain('<title>Getting started | Acme Docs</title>');
    expect(html).toContain('<html lang="en"');
    expect(html).toContain('<h1 class="page-title">🚀 Getting started</h1>');
    expect(html).toContain('<p class="page-description">Everything to begin</p>');
    expect(html).toContain('<meta name="description" content="Everything to begin">');
    // Headings with anchors, and the table of contents.
    expect(html).toContain('<h3 id="install-the-cli">Install the CLI<a class="anchor" href="#install-the-cli"');
    expect(html).toContain('<a href="#configure">Configure</a>');
    // Code highlighted by Shiki (both themes as CSS variables); its text escaped.
    expect(html).toMatch(/<pre class="shiki shiki-themes github-light github-dark"/);
    expect(html).toContain('--shiki-dark:');
    expect(html).toContain('&#x3C;b>');
    // Hint, table (alignment), task list, image from the space, marks.
    expect(html).toContain('<div class="hint hint-warning" role="note"');
    expect(html).toContain('<th scope="col" class="align-right">Value</th>');
    expect(html).toContain('<input type="checkbox" checked disabled aria-label="Done">');
    expect(html).toMatch(new RegExp(`<img src="${w.base}/~files/${w.guide}/[^/"]+/logo.png" alt="Logo"`));
    expect(html).toContain('<strong>Acme</strong>');
    // User text is never markup.
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&#x3C;script>alert(1)&#x3C;/script>');
    // Page links resolve to the site's own addresses, not the API's `/pages/<id>`.
    expect(html).toContain(`<a href="${w.base}/installation">installation guide</a>`);
    expect(html).not.toContain('/pages/');
  });

  it('serves files of the space the page shows', async () => {
    const html = (await get(w.base)).body as string;
    const src = /<img src="([^"]+)"/.exec(html)?.[1] as string;
    const file = await h.app.inject({ method: 'GET', url: src });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect((await get(`${w.base}/~files/${w.guide}/nope/x.png`)).status).toBe(404);
    // A space of the organization that is not on the site serves nothing through it.
    const other = (await w.admin.client.post(`/v1/orgs/${w.orgId}/spaces`, { title: 'Other' })).body.id;
    expect((await get(`${w.base}/~files/${other}/x/x.png`)).status).toBe(404);
  });

  it('navigation: section tabs, sidebar tree with group headings, link pages, the current branch open, breadcrumbs, prev/next', async () => {
    const root = (await get(w.base)).body as string;
    expect(root).toContain('<nav class="tabs" aria-label="Sections">');
    expect(root).toContain(`<a href="${w.base}" aria-current="page">Acme Docs</a>`);
    expect(root).toContain(`<a href="${w.base}/api">API</a>`);
    expect(root).toContain('<div class="group-title">Advanced</div>');
    expect(root).toContain('<a class="external" href="https://example.com" rel="noopener">Website</a>');
    expect(root).toContain(`<a href="${w.base}" aria-current="page">🚀 Getting started</a>`);
    // Docker is under Deployment, which is closed on the root page.
    expect(root).not.toContain('Docker');
    expect(root).toContain(
      `<a class="next" href="${w.base}/installation" rel="next"><small>Next</small>Installation</a>`,
    );

    const docker = await get(`${w.base}/deployment/docker`);
    expect(docker.status).toBe(200);
    const html = docker.body as string;
    expect(html).toContain(`<a href="${w.base}/deployment/docker" aria-current="page">Docker</a>`);
    expect(html).toContain(
      `<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li>Advanced</li><li><a href="${w.base}/deployment">Deployment</a></li></ol></nav>`,
    );
    expect(html).toContain(`rel="prev"><small>Previous</small>Deployment</a>`);
    expect(html).not.toContain('rel="next"');

    // The other section, and a link across spaces resolved to it.
    const api = (await get(`${w.base}/api`)).body as string;
    expect(api).toContain('<h1 class="page-title">Endpoints</h1>');
    expect(api).toContain(`<a href="${w.base}/api" aria-current="page">API</a>`);
    const install = (await get(`${w.base}/installation`)).body as string;
    expect(install).toContain(`<a href="${w.base}/api">endpoints</a>`);
  });

  it('a link page sends the reader to its target; an unknown path is a 404 page in the site look', async () => {
    const link = await get(`${w.base}/website`);
    expect(link.status).toBe(302);
    expect(link.headers.location).toBe('https://example.com');
    const missing = await get(`${w.base}/no/such/page`);
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('Page not found');
    expect(missing.body).toContain('<nav class="pages" aria-label="Pages">');
    expect(missing.body).toContain('Acme Docs');
    expect((await get('/sites/nobody/nothing')).status).toBe(404);
  });

  it('site redirects answer 308 to their destination', async () => {
    const made = await w.admin.client.post(`${w.api}/redirects`, {
      source: '/old/reference',
      destination: { kind: 'site-section', siteSectionId: w.sections.api },
    });
    expect(made.status).toBe(201);
    const res = await get(`${w.base}/old/reference`);
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe(`${w.base}/api`);
    // A live page keeps its path even if a redirect names it.
    await w.admin.client.post(`${w.api}/redirects`, {
      source: '/installation',
      destination: { kind: 'external', url: 'https://example.org/' },
    });
    expect((await get(`${w.base}/installation`)).status).toBe(200);
  });
});

describe('Markdown and machine files', () => {
  it('every page as Markdown at its URL + .md, links absolute on the site', async () => {
    const res = await get(`${w.base}/getting-started.md`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.body).toMatch(/^# 🚀 Getting started\n\n> Everything to begin\n\nWelcome to \*\*Acme\*\* docs/);
    expect(res.body).toContain(`[installation guide](${w.siteUrl}/installation)`);
    expect(res.body).toContain('```ts\nconst answer: number = 42;');
    expect((await get(`${w.base}/deployment/docker.md`)).body).toContain('Run the **container** image.');
    expect((await get(`${w.base}/api/endpoints.md`)).body).toContain('## Authentication');
  });

  it('llms.txt lists the pages with their Markdown; llms-full.txt has them all', async () => {
    const list = await get(`${w.base}/llms.txt`);
    expect(list.status).toBe(200);
    expect(list.body).toContain('# Acme Docs');
    expect(list.body).toContain(`- [Getting started](${w.siteUrl}/getting-started.md): Everything to begin`);
    expect(list.body).toContain(`- [Docker](${w.siteUrl}/deployment/docker.md)`);
    expect(list.body).toContain(`- [Endpoints](${w.siteUrl}/api/endpoints.md)`);
    const full = await get(`${w.base}/llms-full.txt`);
    expect(full.body).toContain('Run the **container** image.');
    expect(full.body).toContain('Every endpoint answers JSON.');
  });

  it('a public site has a sitemap and robots.txt pointing at it', async () => {
    const sitemap = await get(`${w.base}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(sitemap.body).toContain(`<loc>${w.siteUrl}/deployment/docker</loc>`);
    expect(sitemap.body).toContain(`<loc>${w.siteUrl}/api</loc>`);
    const robots = await get(`${w.base}/robots.txt`);
    expect(robots.body).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${w.siteUrl}/sitemap.xml\n`);
    expect((await get(w.base)).headers['x-robots-tag']).toBeUndefined();
  });
});

describe('customization', () => {
  it('applies the merged customization: title, colors, theme, locale, header, footer, announcement, switches', async () => {
    const put = await w.admin.client.put(`${w.api}/customization`, {
      title: 'Acme Handbook',
      styling: { primaryColor: { light: '#ff0066', dark: '#ff0066' } },
      internationalization: { locale: 'fr' },
      themes: { default: 'dark', toggeable: false },
      header: {
        preset: 'default',
        links: [
          { title: 'Status', to: { kind: 'url', url: 'https://status.example.com' }, links: [] },
          { title: 'Install', style: 'button-primary', to: { kind: 'page', page: w.pages.install }, links: [] },
        ],
      },
      footer: {
        groups: [{ title: 'More', links: [{ title: 'Docker', to: { kind: 'page', page: w.pages.docker } }] }],
        copyright: '© Acme',
      },
      announcement: { enabled: true, message: 'Version 2 is out', style: 'success' },
      trademark: { enabled: false },
      favicon: { emoji: '📘' },
    });
    expect(put.status).toBe(200);
    const html = (await get(w.base)).body as string;
    expect(html).toContain('<title>Getting started | Acme Handbook</title>');
    expect(html).toContain('<html lang="fr" data-theme="dark" data-corners="rounded">');
    expect(html).not.toContain('theme-toggle');
    expect(html).toContain('--primary-light:#ff0066');
    expect(html).toContain('<a href="https://status.example.com" rel="noopener">Status</a>');
    expect(html).toContain(`<a class="button-primary" href="${w.base}/installation">Install</a>`);
    expect(html).toContain(`<li><a href="${w.base}/deployment/docker">Docker</a></li>`);
    expect(html).toContain('<span>© Acme</span>');
    expect(html).toContain('Version 2 is out');
    expect(html).not.toContain('Powered by Bindery');
    expect(html).toMatch(/<link rel="icon" href="data:image\/svg\+xml,/);

    // A site space's override wins over the site's settings, for that site space only.
    const siteSpaces = (await w.admin.client.get(`${w.api}/site-spaces`)).body.items as Array<{
      id: string;
      space: { id: string };
    }>;
    const reference = siteSpaces.find((s) => s.space.id === w.reference)?.id;
    const patch = await w.admin.client.patch(`${w.api}/site-spaces/${reference}/customization`, {
      internationalization: { locale: 'de' },
    });
    expect(patch.status).toBe(200);
    expect((await get(`${w.base}/api`)).body).toContain('<html lang="de"');
    expect((await get(w.base)).body).toContain('<html lang="fr"');
    await w.admin.client.put(`${w.api}/customization`, {});
    await w.admin.client.patch(`${w.api}/site-spaces/${reference}/customization`, { internationalization: null });
    expect((await get(w.base)).body).toContain('theme-toggle');
  });
});

describe('render cache', () => {
  it('ETag and If-None-Match on HTML and Markdown', async () => {
    for (const path of [w.base, `${w.base}/installation.md`]) {
      const first = await get(path);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await get(path, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      expect((await get(path, { 'if-none-match': '"other"' })).status).toBe(200);
    }
  });

  it('a merge, a structure change and unpublishing show at once', async () => {
    const before = await get(`${w.base}/installation`);
    await edit(w.admin.client, w.guide, [
      () => [{ operation: 'update_page', page: w.pages.install, document: { markdown: 'Freshly merged words.' } }],
    ]);
    const after = await get(`${w.base}/installation`, { 'if-none-match': before.headers.etag as string });
    expect(after.status).toBe(200);
    expect(after.body).toContain('Freshly merged words.');

    const siteSpaces = (await w.admin.client.get(`${w.api}/site-spaces`)).body.items as Array<{
      id: string;
      space: { id: string };
    }>;
    const reference = siteSpaces.find((s) => s.space.id === w.reference)?.id;
    expect((await get(`${w.base}/api/v2`)).status).toBe(404);
    const second = await w.admin.client.post(`${w.api}/site-spaces`, { spaceId: w.guide, sectionId: w.sections.api });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const api = (await get(`${w.base}/api`)).body as string;
    // Two site spaces in the section: the variant switcher shows both.
    expect(api).toContain('<details class="variants menu">');
    expect(reference).toBeDefined();

    expect((await w.admin.client.post(`${w.api}/unpublish`)).status).toBe(200);
    const gone = await get(`${w.base}/installation`);
    expect(gone.status).toBe(404);
    expect(gone.body).not.toContain('Acme');
    expect((await w.admin.client.post(`${w.api}/publish`)).status).toBe(200);
    expect((await get(`${w.base}/installation`)).status).toBe(200);
  });

  it('a change written behind the API shows on the next request (the model follows the change feed)', async () => {
    expect((await get(w.base)).body).toContain('<title>Getting started | Acme Docs</title>');
    // Straight to the database (another process: test/published/coherence.test.ts).
    await h.db
      .updateTable('sites')
      .set({ customization: JSON.stringify({ title: 'Renamed Elsewhere' }) })
      .where('id', '=', w.siteId)
      .execute();
    expect((await get(w.base)).body).toContain('<title>Getting started | Renamed Elsewhere</title>');
    await h.db.updateTable('sites').set({ customization: null }).where('id', '=', w.siteId).execute();
  });
});

describe('hosts', () => {
  it('a proxy origin serves the site at its path on that host, with links under it', async () => {
    // A proxy is on a host of the organization's own (src/sites/hosts.ts; test/published/tenancy.test.ts).
    await h.db
      .updateTable('organizations')
      .set({ custom_hostname: 'www.acme-proxy.test' })
      .where('id', '=', w.orgId)
      .execute();
    const proxied = await w.admin.client.patch(w.api, { proxy: 'www.acme-proxy.test/help' });
    expect(proxied.status).toBe(200);
    expect(proxied.body.urls.published).toBe('https://www.acme-proxy.test/help');
    const res = await get('/help/deployment/docker', { host: 'www.acme-proxy.test' });
    expect(res.status).toBe(200);
    expect(res.body).toContain('<a href="/help/deployment">Deployment</a>');
    expect(res.body).toContain('<link rel="canonical" href="https://www.acme-proxy.test/help/deployment/docker">');
    expect(count(res.body, `/sites/${w.orgId}`)).toBe(0);
    expect((await get('/elsewhere', { host: 'www.acme-proxy.test' })).status).toBe(404);
    await w.admin.client.patch(w.api, { proxy: null });
    await h.db.updateTable('organizations').set({ custom_hostname: null }).where('id', '=', w.orgId).execute();
  });

  it("an organization's custom hostname serves its sites at /<basename>", async () => {
    await h.db
      .updateTable('organizations')
      .set({ custom_hostname: 'docs.acme.test' })
      .where('id', '=', w.orgId)
      .execute();
    await w.admin.client.patch(w.api, { title: 'Acme Docs' });
    const res = await get('/acme-docs/installation', { host: 'docs.acme.test' });
    expect(res.status).toBe(200);
    expect(res.body).toContain('<a class="brand" href="/acme-docs">');
    // The API itself is not served on a site's host.
    expect((await get('/healthz', { host: 'docs.acme.test' })).status).toBe(200);
    await h.db.updateTable('organizations').set({ custom_hostname: null }).where('id', '=', w.orgId).execute();
  });
});
