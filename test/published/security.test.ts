/**
 * Stored XSS on published sites: script URLs in documents (Markdown and JSON) and in the
 * customization never reach an `href` or `src`; the customization refuses them (400); and every
 * published response carries the security headers (CSP, nosniff, referrer and frame policies).
 */
import { createHash } from 'node:crypto';
import { fromHtml } from 'hast-util-from-html';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';
import { PNG } from '../helpers/fixtures.js';
import { dangerousUrls, HOSTILE_MARKDOWN, hostileDocument } from '../helpers/hostile.js';
import { edit } from '../helpers/published.js';

let h: Harness;
let admin: TestUser;
let orgId: string;
let spaceId: string;
let api: string;
let base: string;

const get = (url: string, headers: Record<string, string> = {}) => h.anonymous.request('GET', url, undefined, headers);

async function publish(title: string, spaces: string[]): Promise<{ api: string; base: string }> {
  const site = await admin.client.post(`/v1/orgs/${orgId}/sites`, { title, spaces, visibility: 'public' });
  expect(site.status, JSON.stringify(site.body)).toBe(201);
  const siteApi = `/v1/orgs/${orgId}/sites/${site.body.id}`;
  expect((await admin.client.post(`${siteApi}/publish`)).status).toBe(200);
  const url = (await admin.client.get(siteApi)).body.urls.published as string;
  return { api: siteApi, base: new URL(url).pathname };
}

beforeAll(async () => {
  h = await createHarness();
  const org = await h.org({ title: 'Hostile' });
  orgId = org.id;
  admin = org.admin;
  spaceId = (await admin.client.post(`/v1/orgs/${orgId}/spaces`, { title: 'Hostile' })).body.id as string;
  await edit(admin.client, spaceId, [
    () => [
      {
        operation: 'insert_files',
        files: [
          { ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: PNG.toString('base64') },
          {
            ref: 'script',
            name: 'evil.js',
            contentType: 'text/javascript',
            base64: Buffer.from('alert(document.domain)').toString('base64'),
          },
        ],
      },
      {
        operation: 'insert_page',
        title: 'Markdown',
        document: { markdown: `${HOSTILE_MARKDOWN}\n\n![Logo](./logo)` },
      },
      { operation: 'insert_page', title: 'Json', document: { document: hostileDocument() } },
      {
        operation: 'insert_page',
        type: 'link',
        title: 'Evil link',
        target: { kind: 'url', url: 'JavaScript:alert(40)' },
      },
      { operation: 'insert_page', type: 'link', title: 'Website', target: { kind: 'url', url: 'https://example.com' } },
    ],
  ]);
  ({ api, base } = await publish('Hostile Docs', [spaceId]));
}, 120_000);
afterAll(async () => h?.close());

describe('script URLs in documents', () => {
  it('a Markdown page: embeds, links and images with script URLs render inert, good links stay', async () => {
    const res = await get(base);
    expect(res.status).toBe(200);
    const html = res.body as string;
    expect(html).toContain('<h1 class="page-title">Markdown</h1>');
    expect(dangerousUrls(html)).toEqual([]);
    expect(html).toContain('href="https://example.com/fine"');
    // The reader still sees the text of what was refused.
    expect(html).toContain('lower');
    expect(html).toContain('alert(11)');
    expect(html).toMatch(new RegExp(`<img src="${base}/~files/${spaceId}/[^"]+/logo.png"`));
  });

  it('a JSON document: embeds, links, inline and block images and link cards with script URLs render inert', async () => {
    const res = await get(`${base}/json`);
    expect(res.status).toBe(200);
    const html = res.body as string;
    expect(dangerousUrls(html)).toEqual([]);
    expect(html).toContain('href="https://example.com/fine"');
    expect(html).toContain('alert(2)');
    // The sidebar links the good link page and not the hostile one.
    expect(html).toContain('href="https://example.com"');
    expect(html).not.toMatch(/javascript:alert\(40\)"/i);
    // The hostile link page leads nowhere: not a redirect to its target.
    const evil = await get(`${base}/evil-link`);
    expect(evil.status).toBe(404);
    expect(evil.headers.location).toBeUndefined();
  });
});

/** A customization with a script URL in every URL field it has. */
const HOSTILE_CUSTOMIZATION = {
  privacyPolicy: { url: 'javascript:alert(31)' },
  socialPreview: { url: 'javascript:alert(32)' },
  favicon: { icon: { light: 'javascript:alert(33)', dark: 'data:text/html,x' } },
  header: {
    logo: { light: 'JaVaScRiPt:alert(34)', dark: 'https://example.com/dark.png' },
    links: [
      { title: 'Top', to: { kind: 'url', url: 'javascript:alert(35)' }, links: [] },
      { title: 'Menu', to: null, links: [{ title: 'Sub', to: { kind: 'url', url: ' javascript:alert(36)' } }] },
    ],
  },
  footer: {
    logo: { light: 'https://example.com/light.png', dark: 'vbscript:msgbox(37)' },
    groups: [{ title: 'More', links: [{ title: 'Foot', to: { kind: 'url', url: 'java\tscript:alert(38)' } }] }],
  },
  announcement: {
    enabled: true,
    message: 'Read this',
    style: 'info',
    link: { title: 'Go', to: { kind: 'url', url: 'data:text/html,<script>alert(39)</script>' } },
  },
};

describe('script URLs in redirects', () => {
  it('an external redirect to a script URL is no redirect; one to a web address is', async () => {
    const made = new Map<string, string>();
    for (const source of ['/evil', '/good']) {
      const url = 'https://example.com/moved';
      const res = await admin.client.post(`${api}/redirects`, { source, destination: { kind: 'external', url } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      made.set(source, res.body.id);
    }
    // The API refuses a script URL (test/api/web-urls.test.ts): one stored before that check, or by hand.
    await h.db
      .updateTable('site_redirects')
      .set({ destination_url: 'JavaScript:alert(41)' })
      .where('id', '=', made.get('/evil') as string)
      .execute();
    const evil = await get(`${base}/evil`);
    expect(evil.status).toBe(404);
    expect(evil.headers.location).toBeUndefined();
    const good = await get(`${base}/good`);
    expect(good.status).toBe(308);
    expect(good.headers.location).toBe('https://example.com/moved');
  });
});

describe('script URLs in the customization', () => {
  it('are refused with a 400 naming the field, on the site and on a site space', async () => {
    const siteSpace = (await admin.client.get(`${api}/site-spaces`)).body.items[0].id as string;
    const bodies: Array<[Record<string, unknown>, string]> = [
      [{ privacyPolicy: { url: 'javascript:alert(1)' } }, 'privacyPolicy/url'],
      [{ privacyPolicy: { url: 'JAVASCRIPT://example.com/%0aalert(1)' } }, 'privacyPolicy/url'],
      [{ privacyPolicy: { url: 'ftp://example.com/privacy' } }, 'privacyPolicy/url'],
      [{ socialPreview: { url: 'data:image/png;base64,AAAA' } }, 'socialPreview/url'],
      [{ favicon: { icon: { light: 'javascript:alert(1)', dark: 'https://x.test/i.png' } } }, 'favicon/icon/light'],
      [{ header: { logo: { light: 'https://x.test/l.png', dark: 'vbscript:x' } } }, 'header/logo/dark'],
      [{ footer: { logo: { light: ' https://x.test/l.png', dark: 'https://x.test/d.png' } } }, 'footer/logo/light'],
      [
        { header: { links: [{ title: 'T', to: { kind: 'url', url: 'javascript:alert(1)' }, links: [] }] } },
        'header/links/0/to/url',
      ],
      [
        { footer: { groups: [{ title: 'G', links: [{ title: 'L', to: { kind: 'url', url: '/relative' } }] }] } },
        'footer/groups/0/links/0/to/url',
      ],
      [
        {
          announcement: {
            enabled: true,
            message: 'Hi there',
            style: 'info',
            link: { title: 'L', to: { kind: 'url', url: 'java\tscript:alert(1)' } },
          },
        },
        'announcement/link/to/url',
      ],
    ];
    for (const [body, field] of bodies) {
      const put = await admin.client.put(`${api}/customization`, body);
      expect(put.status, JSON.stringify(body)).toBe(400);
      expect(put.body.error.message).toContain(field);
      const patch = await admin.client.patch(`${api}/site-spaces/${siteSpace}/customization`, body);
      expect(patch.status, JSON.stringify(body)).toBe(400);
    }
    // Web addresses (any case of the scheme) and mailto: links are accepted.
    const good = await admin.client.put(`${api}/customization`, {
      privacyPolicy: { url: 'HTTPS://example.com/privacy' },
      favicon: { icon: { light: 'https://example.com/l.png', dark: 'http://example.com/d.png' } },
      footer: {
        groups: [{ title: 'Contact', links: [{ title: 'Mail', to: { kind: 'url', url: 'mailto:a@b.test' } }] }],
      },
    });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    const html = (await get(base)).body as string;
    expect(html).toContain('<a href="HTTPS://example.com/privacy" rel="noopener">Privacy policy</a>');
    expect(html).toContain('href="mailto:a@b.test"');
    expect((await admin.client.put(`${api}/customization`, {})).status).toBe(200);
  });

  it('stored anyway (written before the check, or by hand), they render inert on every page, with or without content', async () => {
    const store = async (siteId: string, customization: unknown) => {
      await h.db
        .updateTable('sites')
        .set({ customization: customization === null ? null : JSON.stringify(customization) })
        .where('id', '=', siteId)
        .execute();
      // A commit on the app's connections moves the change feed: the next request reads the site again.
    };
    const siteId = api.split('/').pop() as string;
    // A site with no content: its pages (the 404 page, search) have no site space to resolve links in.
    const empty = await publish('Empty Docs', []);
    const emptyId = empty.api.split('/').pop() as string;
    await store(siteId, HOSTILE_CUSTOMIZATION);
    await store(emptyId, HOSTILE_CUSTOMIZATION);
    const pages = [
      base,
      `${base}/json`,
      `${base}/nowhere`,
      `${base}/~search?q=alert`,
      empty.base,
      `${empty.base}/~search?q=x`,
    ];
    for (const path of pages) {
      const res = await get(path);
      expect(String(res.headers['content-type']), path).toContain('text/html');
      const html = res.body as string;
      expect(html, path).toContain('Read this');
      expect(dangerousUrls(html), path).toEqual([]);
      // Links without a safe target keep no anchor at all; their titles may stay as text.
      expect(html, path).not.toMatch(/<a[^>]*>(Top|Sub|Foot|Go|Privacy policy)<\/a>/);
    }
    await store(siteId, null);
    await store(emptyId, null);
  });
});

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The CSP directives of a response, by name. */
function directives(header: unknown): Map<string, string[]> {
  expect(typeof header, 'content-security-policy header').toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name as string, values]),
  );
}

/** The inline scripts of a page (their text, as the browser hashes it). */
function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  const visit = (node: {
    type: string;
    tagName?: string;
    properties?: Record<string, unknown>;
    children?: unknown[];
  }) => {
    if (node.type === 'element' && node.tagName === 'script' && !node.properties?.src) {
      scripts.push((node.children as Array<{ value?: string }>).map((c) => c.value ?? '').join(''));
    }
    for (const child of (node.children ?? []) as Array<typeof node>) visit(child);
  };
  visit(fromHtml(html) as unknown as Parameters<typeof visit>[0]);
  return scripts;
}

function expectCommonHeaders(headers: Record<string, unknown>, what: string) {
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options'], what).toBe('SAMEORIGIN');
  const csp = directives(headers['content-security-policy']);
  expect(csp.get('frame-ancestors'), what).toEqual(["'self'"]);
  expect(csp.get('default-src'), what).toEqual(["'none'"]);
  return csp;
}

describe('security headers', () => {
  it('HTML pages: a CSP that runs only the site script and the hashed head script, nothing inline or foreign', async () => {
    const page = await get(base);
    const responses = {
      page,
      // A 304's headers replace those of the page the browser keeps: the page's policy, not another.
      notModified: await get(base, { 'if-none-match': page.headers.etag as string }),
      missing: await get(`${base}/nowhere`),
      search: await get(`${base}/~search?q=alert`),
      unknownSite: await get(`/sites/${orgId}/no-such-site`),
    };
    expect(responses.notModified.status).toBe(304);
    expect(responses.missing.status).toBe(404);
    expect(responses.unknownSite.status).toBe(404);
    for (const [what, res] of Object.entries(responses)) {
      if (res.status !== 304) expect(String(res.headers['content-type']), what).toContain('text/html');
      const csp = expectCommonHeaders(res.headers, what);
      const scripts = csp.get('script-src') ?? [];
      expect(scripts, what).not.toContain("'unsafe-inline'");
      expect(scripts, what).not.toContain("'unsafe-eval'");
      expect(
        scripts.filter((s) => !s.startsWith("'sha256-")),
        what,
      ).toEqual(["'self'"]);
      // Every inline script of the page is allowed by its hash, and only those.
      for (const script of inlineScripts(res.body as string)) expect(scripts, what).toContain(sha256(script));
      expect(csp.get('object-src') ?? csp.get('default-src'), what).toEqual(["'none'"]);
      expect(csp.get('base-uri'), what).toEqual(["'none'"]);
      expect(csp.get('form-action'), what).toEqual(["'self'"]);
      expect(csp.get('connect-src'), what).toEqual(["'self'"]);
    }
    expect(inlineScripts(responses.page.body as string)).toHaveLength(1);
  });

  it('everything else (Markdown, text, XML, JSON, assets, files, redirects, 304s): nothing runs, nothing loads', async () => {
    const html = (await get(base)).body as string;
    const css = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1] as string;
    const js = /<script src="([^"]+)"/.exec(html)?.[1] as string;
    const file = new RegExp(`<img src="(${base}/~files/[^"]+)"`).exec(html)?.[1] as string;
    const etag = (await get(`${base}/markdown.md`)).headers.etag as string;
    const paths: Array<[string, number, Record<string, string>?]> = [
      [`${base}/markdown.md`, 200],
      [`${base}/markdown.md`, 304, { 'if-none-match': etag }],
      [`${base}/llms.txt`, 200],
      [`${base}/llms-full.txt`, 200],
      [`${base}/sitemap.xml`, 200],
      [`${base}/robots.txt`, 200],
      [`${base}/~search.json?q=alert`, 200],
      [css, 200],
      [js, 200],
      [file, 200],
      [`${base}/website`, 302],
    ];
    for (const [path, status, headers] of paths) {
      const res = await get(path, headers);
      expect(res.status, path).toBe(status);
      const csp = expectCommonHeaders(res.headers, path);
      expect(csp.get('script-src'), path).toBeUndefined();
      expect(csp.get('style-src'), path).toBeUndefined();
    }
    // A file of the space is also sandboxed: an HTML or SVG file opened directly runs nothing.
    expect(directives((await get(file)).headers['content-security-policy']).has('sandbox')).toBe(true);
  });

  it("a space's script file is served as text: the page policy allows the site's origin, nosniff then runs nothing", async () => {
    const files = (await admin.client.get(`/v1/spaces/${spaceId}/content/files`)).body.items as Array<{
      id: string;
      name: string;
    }>;
    const script = files.find((f) => f.name === 'evil.js');
    const res = await get(`${base}/~files/${spaceId}/${script?.id}/evil.js`);
    expect(res.status).toBe(200);
    expect(res.body).toBe('alert(document.domain)');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
  });
});
