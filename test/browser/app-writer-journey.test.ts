/**
 * A writer's whole journey, in a real browser over a real server, from "Edit" to the published page:
 * on a space a published site shows, the writer starts a change request, makes a new page with a
 * heading, a paragraph linking another page, a bulleted list, a code block (the Markdown shortcuts
 * `#`, `-` and three backticks), a second heading, a hint, an image uploaded from a file and a table
 * whose cells it types (the "/" menu); it autosaves; "Preview" shows it drawn by the published site's renderer; "Submit
 * for review" asks a second person, who signs in, approves and merges (merging takes the review role); and the reader's
 * URL of the published site shows exactly those blocks, nothing else. Each screen is checked with
 * axe, for console errors and Content-Security-Policy violations; screenshots go to test-output/app/.
 */

import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, SpaceWorld, TestUser } from '../helpers/app.js';
import { APP_OUTPUT, signIn, spaceForWriters, watchPage } from '../helpers/app-browser.js';
import { browserMissing } from '../helpers/browser.js';
import { givePassword } from '../helpers/sessions.js';

/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

interface DocNode {
  type?: string;
  nodes?: DocNode[];
}

/**
 * The blocks of a rendered page's article (its title and actions aside), as a reader's browser has
 * them: each block's tag and classes, its text (without the headings' anchor links), and what it
 * holds: links, list items, images, table cells.
 */
function articleBlocks(frame: Page | Frame) {
  return frame.evaluate(() => {
    const article = document.querySelector('main article') as HTMLElement;
    const squash = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();
    return [...article.children]
      .filter((e) => !e.matches('h1.page-title, .page-actions, .page-description'))
      .map((e) => {
        const copy = e.cloneNode(true) as HTMLElement;
        for (const anchor of copy.querySelectorAll('a.anchor')) anchor.remove();
        const links = [...e.querySelectorAll('a:not(.anchor)')].map((a) => [
          squash(a.textContent),
          a.getAttribute('href'),
        ]);
        const items = [...e.querySelectorAll('li')].map((li) => squash(li.textContent));
        const images = [...e.querySelectorAll('img')].map((img) => [img.alt, img.getAttribute('src')]);
        const cells = [...e.querySelectorAll('th, td')].map(
          (cell) => `${cell.tagName.toLowerCase()}:${squash(cell.textContent)}`,
        );
        return {
          kind: [e.tagName.toLowerCase(), ...e.classList].join('.'),
          // A list's or a table's text is that of its items or cells.
          ...(items.length || cells.length ? {} : { text: squash(copy.textContent) }),
          ...(links.length ? { links } : {}),
          ...(items.length ? { items } : {}),
          ...(images.length ? { images } : {}),
          ...(cells.length ? { cells } : {}),
        };
      });
  });
}

/** What the written page must show, exactly, on a site whose page addresses start with `base`. */
function expectedBlocks(base: string, image: RegExp) {
  return [
    { kind: 'h2', text: 'Overview' },
    { kind: 'p', text: 'Read Installation first.', links: [['Installation', `${base}/installation`]] },
    { kind: 'ul', items: ['first item', 'second item'] },
    { kind: 'div.code-block', text: 'npm run build' },
    { kind: 'h3', text: 'Details' },
    { kind: 'div.hint.hint-info', text: 'Mind the gap.' },
    { kind: 'figure', text: '', images: [['Architecture diagram', expect.stringMatching(image)]] },
    {
      kind: 'div.table-wrap',
      cells: ['th:Column 1', 'th:Column 2', 'td:Apple', 'td:Ripe', 'td:', 'td:'],
    },
  ];
}

describe.skipIf(browserMissing)("a writer's journey from Edit to the published page", () => {
  let h: Harness;
  let browser: Browser;
  let base: string;
  let world: SpaceWorld;
  let writer: TestUser;
  let reviewer: TestUser;
  let siteUrl: string;

  beforeAll(async () => {
    ({ h, base, browser, world, writer } = await spaceForWriters(
      'Handbook',
      { 'Getting started': 'Welcome.', Installation: 'Run the installer.' },
      {
        output: APP_OUTPUT,
        seed: async (space, harness) => {
          // A public site shows the space, published.
          const sites = `/v1/orgs/${space.orgId}/sites`;
          const site = await space.admin.client.post(sites, {
            title: 'Handbook',
            spaces: [space.spaceId],
            visibility: 'public',
          });
          expect(site.status, JSON.stringify(site.body)).toBe(201);
          expect((await space.admin.client.post(`${sites}/${site.body.id}/publish`)).status).toBe(200);
          siteUrl = (await space.admin.client.get(`${sites}/${site.body.id}`)).body.urls.published;
          reviewer = await harness.member(space.orgId, 'review');
          await givePassword(harness.db, reviewer.user.id);
        },
      },
    ));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('writes a page with every kind of block, previews it, has it approved and merged, and readers see it', async () => {
    const page = await browser.newPage();
    const { quietAndAccessible } = await watchPage(page);
    const site = new URL(siteUrl).pathname;
    await page.goto(`${base}/s/${world.spaceId}`);
    await signIn(page, writer.user.email);
    await page.getByRole('heading', { level: 1, name: 'Getting started' }).waitFor();

    // "Edit" opens the writer's change request; "New page" starts the page.
    await page.getByRole('button', { name: 'Edit' }).click();
    const body = page.getByRole('textbox', { name: 'Page content' });
    await body.waitFor();
    const number = /\/~\/changes\/(\d+)\/edit/.exec(page.url())?.[1] as string;
    const tree = page.getByRole('navigation', { name: 'Pages of the change request' });
    const pageIdInUrl = () => /\/edit\/([^/?]+)/.exec(page.url())?.[1];
    const firstPageId = pageIdInUrl();
    await tree.getByRole('button', { name: 'New page' }).click();
    await page.waitForURL((url) => url.pathname.includes('/edit/') && !url.pathname.endsWith(firstPageId as string));
    const pageId = pageIdInUrl() as string;
    await body.waitFor();
    const stored = async () =>
      (await writer.client.get(`${world.base}/change-requests/${number}/content/page/${pageId}`)).body;
    const storedTypes = async () => ((await stored()).document?.nodes ?? []).map((n: DocNode) => n.type);
    const saved = page.getByRole('status').filter({ hasText: 'All changes saved' });
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    /** Types "/" and `query`, then picks `option` once the menu offers it alone. */
    const slash = async (query: string, option: string) => {
      await page.keyboard.type(`/${query}`);
      await expect.poll(() => menu.getByRole('option').allTextContents()).toEqual([option]);
      await page.keyboard.press('Enter');
    };
    const frame = () => page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => done())));
    await page.getByLabel('Page title').fill('Writing guide');
    await body.click();
    await body.and(page.locator('.ProseMirror-focused')).waitFor();
    await page.keyboard.press('Control+End');
    await frame();

    // A heading by "#", then a paragraph linking the "Installation" page (found in the "Link" dialog).
    await page.keyboard.type('# Overview');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Read ');
    await page.keyboard.press('Control+k');
    const linkDialog = page.getByRole('dialog', { name: 'Link' });
    await linkDialog.getByLabel('Search pages or type an address').fill('Install');
    await linkDialog.getByRole('button', { name: 'Installation' }).click();
    await body.locator('a', { hasText: 'Installation' }).waitFor();
    await page.keyboard.type(' first.');
    await page.keyboard.press('Enter');

    // A bulleted list by "-", left by Enter on its empty last item.
    await page.keyboard.type('- first item');
    await page.keyboard.press('Enter');
    await page.keyboard.type('second item');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');

    // A code block by three backticks.
    await page.keyboard.type('```');
    await page.keyboard.press('Enter');
    await body.locator('pre').waitFor();
    await page.keyboard.type('npm run build');
    // Enter twice at its end leaves it.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');

    // From the "/" menu: a second heading, a hint, an image from a file, a table.
    await slash('h2', 'Heading 2');
    await page.keyboard.type('Details');
    await page.keyboard.press('Enter');
    await slash('hint', 'Hint');
    await page.keyboard.type('Mind the gap.');
    // Enter in its empty last paragraph leaves it.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const picker = page.getByLabel('Image file');
    await picker.evaluate((input) =>
      input.addEventListener('click', (event) => {
        event.preventDefault();
        input.dataset.opened = 'yes';
      }),
    );
    await slash('image', 'Image');
    await expect.poll(() => picker.getAttribute('data-opened')).toBe('yes');
    await picker.setInputFiles({
      name: 'diagram.png',
      mimeType: 'image/png',
      buffer: Buffer.from(PNG_BASE64, 'base64'),
    });
    const altDialog = page.getByRole('dialog', { name: 'Describe the image' });
    await altDialog.getByLabel('Alt text').fill('Architecture diagram');
    await altDialog.getByRole('button', { name: 'Save alt text' }).click();
    await body.getByRole('img', { name: 'Architecture diagram' }).waitFor();
    // The dialog gone, the editor has the focus back (the image selected in it: a key pressed
    // before would go to the closing dialog, and the "/" typed next would replace the image).
    await altDialog.waitFor({ state: 'detached' });
    await body.and(page.locator('.ProseMirror-focused')).waitFor();
    // ArrowDown after the image, the page's last block: a paragraph to go on with.
    await page.keyboard.press('ArrowDown');
    await frame();
    await slash('table', 'Table');
    await body.locator('table').waitFor();
    // The caret is in the first cell: type it, Tab to the next.
    await page.keyboard.type('Apple');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Ripe');

    // Autosaved: the server holds every block, in order.
    await expect
      .poll(storedTypes, { timeout: 15_000 })
      .toEqual(
        expect.arrayContaining([
          'heading-1',
          'paragraph',
          'list-unordered',
          'code',
          'heading-2',
          'hint',
          'images',
          'table',
        ]),
      );
    await saved.waitFor();
    await quietAndAccessible();
    await page.screenshot({ path: `${APP_OUTPUT}/journey-editor.png`, fullPage: true });

    // "Preview": the change request drawn by the published site's renderer, in a frame of the app.
    await page.getByRole('link', { name: 'Preview' }).click();
    const preview = page.frameLocator('iframe[title^="Published preview"]');
    await preview.getByRole('heading', { level: 1, name: 'Writing guide' }).waitFor();
    const previewFrame = page.frames().find((f) => f.url().includes('/~changes/')) as Frame;
    const previewBase = /^[^?]*\/~changes\/[^/?]+/.exec(new URL(previewFrame.url()).pathname)?.[0] as string;
    expect(previewBase).toMatch(new RegExp(`^${site}/~changes/`));
    expect(await articleBlocks(previewFrame)).toEqual(
      expectedBlocks(previewBase, new RegExp(`^${previewBase}/~files/${world.spaceId}/[^/]+/diagram\\.png$`)),
    );
    await quietAndAccessible();
    await page.screenshot({ path: `${APP_OUTPUT}/journey-preview.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${APP_OUTPUT}/journey-preview-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByRole('link', { name: 'Back to editing' }).click();
    await body.waitFor();

    // "Submit for review" asks the reviewer.
    await page.getByRole('button', { name: 'Submit for review' }).click();
    const submit = page.getByRole('dialog', { name: 'Submit for review' });
    await submit.getByRole('checkbox', { name: reviewer.user.display_name }).check();
    await submit.getByRole('button', { name: 'Request review' }).click();
    await submit.getByText('Review requested.').waitFor();
    await quietAndAccessible();
    await submit.getByRole('button', { name: 'Close' }).click();

    // The reviewer signs in (a browser of their own), reads the change request, approves and merges it.
    const reviewerContext = await browser.newContext();
    const review = await reviewerContext.newPage();
    const reviewWatch = await watchPage(review);
    await review.goto(`${base}/s/${world.spaceId}/~/changes/${number}`);
    await signIn(review, reviewer.user.email);
    await review.getByRole('heading', { level: 1, name: 'Edits' }).waitFor();
    await review.getByRole('button', { name: 'Approve' }).waitFor();
    await review.getByText('Mind the gap.').first().waitFor();
    await reviewWatch.quietAndAccessible();
    await review.getByRole('button', { name: 'Approve' }).click();
    await review.getByText(/: approved/).waitFor();
    await review.screenshot({ path: `${APP_OUTPUT}/journey-review.png`, fullPage: true });
    // Merging takes the review role: the reviewer merges.
    await review.getByRole('button', { name: 'Merge' }).click();
    await review.getByText('Merged.').waitFor();
    await reviewWatch.quietAndAccessible();
    await reviewerContext.close();

    // A reader (no session) at the published page's URL sees exactly those blocks.
    const live = (await world.admin.client.get(`${world.base}/content`)).body.pages as { id: string; path: string }[];
    const path = live.find((p) => p.id === pageId)?.path as string;
    const readerContext = await browser.newContext();
    const reader = await readerContext.newPage();
    const readerWatch = await watchPage(reader);
    await reader.goto(`${base}${site}/${path}`);
    await reader.getByRole('heading', { level: 1, name: 'Writing guide' }).waitFor();
    expect(await articleBlocks(reader)).toEqual(
      expectedBlocks(site, new RegExp(`^${site}/~files/${world.spaceId}/[^/]+/diagram\\.png$`)),
    );
    const picture = reader.getByRole('img', { name: 'Architecture diagram' });
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    await readerWatch.quietAndAccessible();
    await reader.screenshot({ path: `${APP_OUTPUT}/journey-published.png`, fullPage: true });
    await reader.setViewportSize({ width: 390, height: 844 });
    await reader.screenshot({ path: `${APP_OUTPUT}/journey-published-phone.png`, fullPage: true });
    await reader.setViewportSize({ width: 1280, height: 720 });
    // The link leads to the other page's published address.
    await reader.locator('main article').getByRole('link', { name: 'Installation' }).click();
    await reader.getByRole('heading', { level: 1, name: 'Installation' }).waitFor();
    expect(new URL(reader.url()).pathname).toBe(`${site}/installation`);
    await readerContext.close();
    await page.close();
  });
});
