import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';
import { buildDocx, buildZip, PNG, type Site, serve } from '../helpers/fixtures.js';

/** Fetches may reach loopback here (the test site); `guarded` keeps the default refusal. */
let open: Harness;
let guarded: Harness;
let site: Site;

const html = (title: string, body: string) => `<html><head><title>${title}</title></head><body>${body}</body></html>`;

beforeAll(async () => {
  open = await createHarness({ env: { FETCH_ALLOW_PRIVATE: 'true' } });
  guarded = await createHarness();
  site = await serve({
    '/robots.txt': [200, 'text/plain', 'User-agent: *\nDisallow: /private\n'],
    '/': [
      200,
      'text/html',
      html(
        'Home',
        '<nav><a href="/about">About</a></nav><main><h1>Home page</h1><p>Read <a href="/about#team">about us</a>, ' +
          '<a href="/private/secret">secrets</a>, <a href="https://elsewhere.test/x">elsewhere</a> and <a href="/level1">deeper</a>.</p>' +
          '<img src="/logo.png" alt="Logo"></main>',
      ),
    ],
    '/about': [
      200,
      'text/html; charset=utf-8',
      html('About', '<h1>About</h1><h2 id="team">Team</h2><p>Back <a href="/">home</a>.</p>'),
    ],
    '/private/secret': [200, 'text/html', html('Secret', '<p>nope</p>')],
    '/level1': [200, 'text/html', html('L1', '<p><a href="/level2">next</a></p>')],
    '/level2': [200, 'text/html', html('L2', '<p><a href="/level3">next</a></p>')],
    '/level3': [200, 'text/html', html('L3', '<p><a href="/level4">next</a></p>')],
    '/level4': [200, 'text/html', html('L4', '<p>too deep</p>')],
    '/page.md': [200, 'text/markdown', '# From the web\n\nFetched **markdown**.\n'],
    '/page.html': [
      200,
      'text/html',
      html(
        'Fetched',
        '<h1>Fetched HTML</h1><ul><li>one</li><li>two</li></ul><pre><code class="language-js">let a = 1;</code></pre>',
      ),
    ],
    '/redirect': [302, 'text/plain', '/page.md'],
    '/to-file': [302, 'text/plain', 'file:///etc/passwd'],
    '/loop': [302, 'text/plain', '/loop'],
  });
});
afterAll(async () => {
  await site?.close();
  await open?.close();
  await guarded?.close();
});

async function newChangeRequest(h: Harness): Promise<{ admin: TestUser; orgId: string; base: string; cr: string }> {
  const org = await h.org();
  const space = await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'Imports' });
  const base = `/v1/spaces/${space.body.id}/change-requests`;
  const cr = await org.admin.client.post(base, { subject: 'Import' });
  return { admin: org.admin, orgId: org.id, base: `${base}/${cr.body.id}`, cr: cr.body.id };
}

const dataUri = (type: string, bytes: Buffer | string) =>
  `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;

describe('imports', () => {
  it('imports Markdown from a data: URI and over HTTP, as new pages or into a page', async () => {
    const { admin, base } = await newChangeRequest(open);
    const res = await admin.client.post(`${base}/content/import`, {
      source: 'markdown',
      url: dataUri('text/markdown', '# Imported\n\n{% hint style="info" %}\nHi\n{% endhint %}\n'),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ importedResources: 1, totalResources: 1, revision: expect.any(String) });
    const cr = await admin.client.get(base);
    expect(cr.body.revision).toBe(res.body.revision);
    const pages = (await admin.client.get(`${base}/content/pages`)).body.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Imported']);
    expect(pages[0].document.nodes[0]).toMatchObject({ type: 'hint', data: { style: 'info' } });

    const web = await admin.client.post(`${base}/content/import`, { source: 'markdown', url: `${site.url}/redirect` });
    expect(web.status).toBe(200);
    const into = await admin.client.post(`${base}/content/page/${pages[0].id}/import`, {
      source: 'markdown',
      url: `${site.url}/page.md`,
    });
    expect(into.body).toMatchObject({ importedResources: 1, totalResources: 1 });
    const page = await admin.client.get(`${base}/content/page/${pages[0].id}?format=markdown`);
    expect(page.body).toMatchObject({ title: 'Imported', markdown: 'Fetched **markdown**.\n' });
    const titles = (await admin.client.get(`${base}/content/pages`)).body.pages.map((p: { title: string }) => p.title);
    expect(titles).toEqual(['Imported', 'From the web']);
  });

  it('imports HTML with a real parser', async () => {
    const { admin, base } = await newChangeRequest(open);
    const res = await admin.client.post(`${base}/content/import`, { source: 'html', url: `${site.url}/page.html` });
    expect(res.status).toBe(200);
    const [page] = (await admin.client.get(`${base}/content/pages`)).body.pages;
    expect(page.title).toBe('Fetched HTML');
    expect(page.document.nodes.map((n: { type: string }) => n.type)).toEqual(['list-unordered', 'code']);
    expect(page.document.nodes[1].data).toEqual({ syntax: 'js' });
  });

  it('imports a .docx with its formatting, table, link and image', async () => {
    const { admin, base } = await newChangeRequest(open);
    const docx = dataUri('application/vnd.openxmlformats-officedocument.wordprocessingml.document', buildDocx());
    const res = await admin.client.post(`${base}/content/import`, { source: 'docx', url: docx });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ importedResources: 2, totalResources: 2 });
    const [page] = (await admin.client.get(`${base}/content/pages`)).body.pages;
    expect(page.title).toBe('Word Title');
    const md = (await admin.client.get(`${base}/content/page/${page.id}?format=markdown`)).body.markdown;
    expect(md).toContain('Plain, **bold** and *italic*.\n\n[a link]');
    expect(md).toContain('[a link](https://example.com/docs)');
    expect(md).toContain('## Section');
    expect(md).toMatch(/\| Name \| Value \|/);
    const files = (await admin.client.get(`${base}/content/files`)).body.items;
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ contentType: 'image/png', dimensions: { width: 2, height: 3 } });
    expect(md).toContain(`/files/${files[0].id}`);
    const bad = await admin.client.post(`${base}/content/import`, {
      source: 'docx',
      url: dataUri('text/plain', 'nope'),
    });
    expect(bad.status).toBe(400);
  });

  it('imports a .zip: folders become nested pages, images files, relative links references', async () => {
    const { admin, base } = await newChangeRequest(open);
    const res = await admin.client.post(`${base}/content/import`, {
      source: 'zip',
      url: dataUri('application/zip', buildZip()),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ importedResources: 5, totalResources: 5 });
    const pages = (await admin.client.get(`${base}/content/pages`)).body.pages;
    const tree = (list: Array<{ title: string; path: string; pages?: unknown[] }>): unknown =>
      list.map((p) => [p.title, p.path, tree((p.pages ?? []) as never)]);
    expect(tree(pages)).toEqual([
      ['Welcome', 'welcome', []],
      ['The guide', 'the-guide', [['Setup steps', 'the-guide/setup-steps', []]]],
      ['Notes', 'notes', []],
    ]);
    const [welcome, guide] = pages;
    const setup = guide.pages[0];
    const files = (await admin.client.get(`${base}/content/files`)).body.items;
    expect(files).toMatchObject([{ name: 'logo.png', contentType: 'image/png', size: PNG.length }]);
    const md = (await admin.client.get(`${base}/content/page/${setup.id}?format=markdown`)).body.markdown;
    expect(md).toContain(`[the guide](/pages/${guide.id}#top)`);
    expect(md).toContain(`![logo](/files/${files[0].id})`);
    const home = (await admin.client.get(`${base}/content/page/${welcome.id}?format=markdown`)).body.markdown;
    expect(home).toContain(`[setup](/pages/${setup.id})`);
    const back = await admin.client.get(`${base}/content/page/${welcome.id}/backlinks`);
    expect(back.body.items.map((p: { id: string }) => p.id)).toEqual([guide.id]);
  });

  it('crawls a website: same origin, robots.txt, bounded depth', async () => {
    const { admin, base } = await newChangeRequest(open);
    site.hits.length = 0;
    const res = await admin.client.post(`${base}/content/import`, { source: 'website', url: `${site.url}/` });
    expect(res.status).toBe(200);
    // Found: /, /about, /private/secret, /level1..4 (same origin only); imported: all but the
    // disallowed page and the one past the depth limit.
    expect(res.body).toMatchObject({ totalResources: 7, importedResources: 5 });
    expect(site.hits).not.toContain('/private/secret');
    expect(site.hits).not.toContain('/level4');
    expect(site.hits).toContain('/robots.txt');
    const pages = (await admin.client.get(`${base}/content/pages`)).body.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Home page', 'About', 'L1', 'L2', 'L3']);
    const home = (await admin.client.get(`${base}/content/page/${pages[0].id}?format=markdown`)).body.markdown;
    expect(home).toContain(`[about us](/pages/${pages[1].id}#team)`);
    expect(home).toContain('[elsewhere](https://elsewhere.test/x)');
    expect(home).toContain(`![Logo](${site.url}/logo.png)`);
    const links = await admin.client.get(`${base}/content/page/${pages[0].id}/links`);
    expect(links.body.stats).toEqual({ total: 5, broken: { total: 0, changeRequest: 0 } });
  });

  it('answers third-party sources with 400 and checks the body', async () => {
    const { admin, base } = await newChangeRequest(open);
    for (const source of ['notion', 'confluence', 'github-wiki', 'dropbox-paper', 'google-docs']) {
      const res = await admin.client.post(`${base}/content/import`, { source, url: 'https://example.com' });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('not supported yet');
    }
    expect((await admin.client.post(`${base}/content/import`, { source: 'pdf', url: 'https://x.test' })).status).toBe(
      400,
    );
    expect((await admin.client.post(`${base}/content/import`, { source: 'markdown' })).status).toBe(400);
    expect(
      (await admin.client.post(`${base}/content/page/missing/import`, { source: 'markdown', url: 'data:,x' })).status,
    ).toBe(404);
  });

  it('lets editors import; readers get 403, outsiders 404', async () => {
    const { base, orgId } = await newChangeRequest(open);
    const body = { source: 'markdown', url: 'data:text/markdown,hello' };
    const reader = await open.member(orgId, 'read');
    expect((await reader.client.post(`${base}/content/import`, body)).status).toBe(403);
    const outsider = await open.user();
    expect((await outsider.client.post(`${base}/content/import`, body)).status).toBe(404);
    const editor = await open.member(orgId, 'edit');
    expect((await editor.client.post(`${base}/content/import`, body)).status).toBe(200);
  });
});

describe('guarded fetching (SSRF)', () => {
  it('refuses loopback, private, link-local and non-http targets unless FETCH_ALLOW_PRIVATE', async () => {
    const { admin, base } = await newChangeRequest(guarded);
    const port = new URL(site.url).port;
    site.hits.length = 0;
    for (const url of [
      `${site.url}/page.md`,
      `http://localhost:${port}/page.md`,
      `http://[::1]:${port}/page.md`,
      `http://[::ffff:127.0.0.1]:${port}/page.md`,
      'http://10.0.0.1/x',
      'http://169.254.169.254/latest/meta-data',
      'http://192.168.1.1/',
      'file:///etc/passwd',
    ]) {
      const res = await admin.client.post(`${base}/content/import`, { source: 'markdown', url });
      expect(res.status, url).toBe(400);
      expect(res.body.error.message, url).toContain('FETCH_FORBIDDEN_ADDRESS');
    }
    const website = await admin.client.post(`${base}/content/import`, { source: 'website', url: `${site.url}/` });
    expect(website.status).toBe(400);
    const file = await admin.client.post(`${base}/content`, {
      changes: [{ operation: 'insert_files', files: [{ name: 'x.png', url: `${site.url}/logo.png` }] }],
    });
    expect(file.status).toBe(400);
    expect(file.body.error.message).toContain('FETCH_FORBIDDEN_ADDRESS');
    expect(site.hits).toEqual([]);
  });

  it('re-checks redirects and bounds them, and caps sizes', async () => {
    const { admin, base } = await newChangeRequest(open);
    const toFile = await admin.client.post(`${base}/content/import`, {
      source: 'markdown',
      url: `${site.url}/to-file`,
    });
    expect(toFile.status).toBe(400);
    expect(toFile.body.error.message).toContain('FETCH_FORBIDDEN_ADDRESS');
    const loop = await admin.client.post(`${base}/content/import`, { source: 'markdown', url: `${site.url}/loop` });
    expect(loop.status).toBe(400);
    expect(loop.body.error.message).toContain('redirects');
    const huge = await admin.client.post(`${base}/content`, {
      changes: [
        {
          operation: 'insert_files',
          files: [{ name: 'big.txt', url: dataUri('text/plain', Buffer.alloc(5 * 1024 * 1024 + 1)) }],
        },
      ],
    });
    expect(huge.status).toBe(413);
  });
});
