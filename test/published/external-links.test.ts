/**
 * External links of a site's structure in the published navigation: outbound links among the
 * section tabs and in group menus; drafts and links whose condition fails left out; a URL the
 * safe-URL check refuses never reaching an `href`, even when written past the API.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlScheme } from '../../src/lib/safe-url.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { edit } from '../helpers/published.js';
import { newSite, type Site } from '../helpers/sites.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const get = (url: string) => h.anonymous.request('GET', url);

/** A published site with one section ("Docs", a page in it), and the path it is served under. */
async function publishedSite(): Promise<Site & { base: string }> {
  const site = await newSite(h, { spaces: ['Guide'] });
  const spaceId = (await site.admin.client.get(`${site.url}/site-spaces`)).body.items[0].space.id as string;
  await edit(site.admin.client, spaceId, [
    () => [{ operation: 'insert_page', ref: 'p', title: 'Welcome', document: { markdown: 'Hello.' } }],
  ]);
  const section = await site.admin.client.post(`${site.url}/sections`, {
    spaceId: await site.space('Ref'),
    title: 'API',
  });
  expect(section.status).toBe(201);
  // One section only: without links, no tabs.
  expect((await site.admin.client.delete(`${site.url}/sections/${section.body.id}`)).status).toBe(204);
  expect((await site.admin.client.post(`${site.url}/publish`)).status).toBe(200);
  const published = (await site.admin.client.get(site.url)).body.urls.published as string;
  return { ...site, base: new URL(published).pathname };
}

/** The section tabs of the page, or '' when there are none. */
const tabsOf = (html: string) => /<nav class="tabs" aria-label="Sections">[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';

describe('external links in the published navigation', () => {
  it('shows a link as an outbound tab, in group menus too; drafts never; gone once deleted', async () => {
    const site = await publishedSite();
    expect(tabsOf((await get(site.base)).body)).toBe('');
    const status = await site.admin.client.post(`${site.url}/external-links`, {
      title: 'Status & uptime',
      url: 'https://status.acme.test/?a=1&b=2',
    });
    expect(status.status).toBe(201);
    const page = await get(site.base);
    expect(page.status).toBe(200);
    const tabs = tabsOf(page.body);
    expect(tabs).toContain(
      '<a class="external" href="https://status.acme.test/?a=1&#x26;b=2" rel="noopener">Status &#x26; uptime</a>',
    );
    expect(tabs).toMatch(/>Docs<\/a>/);

    const group = await site.admin.client.post(`${site.url}/section-groups`, { title: 'Community' });
    await site.admin.client.post(`${site.url}/external-links`, {
      title: 'Forum',
      url: 'https://forum.acme.test/',
      parent: group.body.id,
    });
    await site.admin.client.post(`${site.url}/external-links`, {
      title: 'Secret',
      url: 'https://draft.acme.test/',
      draft: true,
    });
    const withGroup = tabsOf((await get(site.base)).body);
    expect(withGroup).toContain('<summary>Community</summary>');
    expect(withGroup).toContain(
      '<li><a class="external" href="https://forum.acme.test/" rel="noopener">Forum</a></li>',
    );
    expect(withGroup).not.toContain('draft.acme.test');
    expect(withGroup).not.toContain('Secret');
    // The published profile leaves the draft out too; the API's structure has it.
    const profile = (await site.admin.client.get(`${site.url}/published`)).body;
    expect(JSON.stringify(profile.structure)).not.toContain('Secret');
    expect(JSON.stringify((await site.admin.client.get(`${site.url}/structure`)).body)).toContain('Secret');

    expect((await site.admin.client.delete(`${site.url}/external-links/${status.body.id}`)).status).toBe(205);
    const after = tabsOf((await get(site.base)).body);
    expect(after).not.toContain('status.acme.test');
    expect(after).toContain('Forum');
    // They open where the customization says the site's outbound links open.
    const custom = await site.admin.client.put(`${site.url}/customization`, { externalLinks: { target: 'blank' } });
    expect(custom.status, JSON.stringify(custom.body)).toBe(200);
    expect(tabsOf((await get(site.base)).body)).toContain(
      '<a class="external" href="https://forum.acme.test/" rel="noopener" target="_blank">Forum</a>',
    );
  });

  it('shows a link with a condition only to visitors who meet it', async () => {
    const site = await publishedSite();
    await site.admin.client.post(`${site.url}/external-links`, {
      title: 'Staff wiki',
      url: 'https://wiki.acme.test/',
      condition: 'visitor.claims.unsigned.staff === true',
    });
    const anonymous = await get(site.base);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).not.toContain('wiki.acme.test');
    expect(tabsOf((await get(`${site.base}?visitor.staff=true`)).body)).toContain('href="https://wiki.acme.test/"');
  });

  it('never puts a hostile URL in an href, even one stored past the API', async () => {
    const site = await publishedSite();
    const ok = await site.admin.client.post(`${site.url}/external-links`, {
      title: 'Fine',
      url: 'https://fine.acme.test/',
    });
    const hostile = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      ' \u0001javascript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html,<script>alert(1)</script>',
      '//evil.test/relative',
      '/local/path',
    ];
    for (const [i, url] of hostile.entries()) {
      // Written straight to the table, as a bug or an old import might: the renderer checks again.
      await h.db
        .insertInto('site_external_links')
        .values({
          id: `hostile${i}${ok.body.id}`.slice(0, 40),
          site_id: (await site.admin.client.get(site.url)).body.id,
          group_id: null,
          title: `Hostile ${i}`,
          localized_title: null,
          description: null,
          localized_description: null,
          icon: null,
          url,
          draft: 0,
          condition: null,
          position: 100 + i,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute();
    }
    // A structure change through the API makes the site's next render read the rows.
    await site.admin.client.patch(`${site.url}/external-links/${ok.body.id}`, { title: 'Fine link' });
    const res = await get(site.base);
    expect(res.status).toBe(200);
    const html = res.body as string;
    const tabs = tabsOf(html);
    expect(tabs).toContain('href="https://fine.acme.test/"');
    // Every href of the page is a web address, a relative one, mailto/tel or the favicon's data: image
    // (as a browser reads it).
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] as string);
    const refused = hrefs.filter((href) => {
      const scheme = urlScheme(href);
      if (scheme === 'data') return !href.startsWith('data:image/');
      return scheme !== null && !['http', 'https', 'mailto', 'tel'].includes(scheme);
    });
    expect(hrefs.length).toBeGreaterThan(3);
    expect(refused).toEqual([]);
    expect(html.toLowerCase()).not.toContain('script:alert');
    expect(html).not.toContain('vbscript:');
    expect(html).not.toContain('data:text/html');
    expect(html).not.toContain('evil.test');
    expect(tabs).not.toContain('Hostile');
  });

  it('property: the API stores only http(s) URLs, and no URL it stores reaches an href as a script', async () => {
    const site = await publishedSite();
    // URLs made of scheme-like pieces, the characters a browser drops or folds, and plain text.
    const piece = fc.constantFrom(
      'javascript:',
      'JavaScript:',
      'java',
      'script:',
      'vbscript:',
      'data:',
      'text/html,',
      'http',
      'https:',
      '//',
      '\t',
      '\n',
      '\r',
      '\u0000',
      ' ',
      '&#58;',
      '%3A',
      'alert(1)',
      'evil.test/',
      '?q=<b>',
      '"',
    );
    const url = fc.oneof(
      fc.array(piece, { minLength: 1, maxLength: 8 }).map((p) => p.join('')),
      fc.string(),
    );
    await fc.assert(
      fc.asyncProperty(url, async (candidate) => {
        const res = await site.admin.client.post(`${site.url}/external-links`, { title: 'Fuzz', url: candidate });
        if (res.status === 201) {
          expect(res.body.url).toBe(candidate);
          expect(urlScheme(candidate)).toMatch(/^https?$/);
        } else {
          expect(res.status, JSON.stringify(res.body)).toBe(400);
        }
      }),
      { numRuns: 150, seed: 32 },
    );
    const html = (await get(site.base)).body as string;
    const schemes = [...html.matchAll(/href="([^"]*)"/g)]
      .map((m) => m[1] as string)
      .filter((href) => !href.startsWith('data:image/'));
    expect(schemes.filter((href) => !['http', 'https', 'mailto', 'tel', null].includes(urlScheme(href)))).toEqual([]);
  });
});
