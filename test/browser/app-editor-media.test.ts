/**
 * What the editor brings in besides typing, in a real browser over a real server (at 390px): an
 * image pasted into the body is uploaded into the organization's storage, added to the change
 * request's files and shown as an images block, with the alt text asked for; one dropped and one
 * picked from the "/" menu's "Image" too; the drag handle shows on hover; the "Link" dialog
 * (Control+K) links to another page of the space by searching its title (and refuses a
 * `javascript:` address); pasted Markdown and HTML convert through the import API's converters;
 * Alt+Shift+ArrowUp moves a block. Axe, console errors and CSP violations are checked. One page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, SpaceWorld, TestUser } from '../helpers/app.js';
import { signIn, spaceForWriters, watchPage } from '../helpers/app-browser.js';
import { browserMissing } from '../helpers/browser.js';

interface DocNode {
  object?: string;
  type?: string;
  data?: Record<string, unknown>;
  nodes?: DocNode[];
  leaves?: { text: string }[];
}
const types = (nodes: DocNode[] = []): string[] => nodes.map((n) => n.type ?? '');
function* walk(nodes: DocNode[] = []): Generator<DocNode> {
  for (const node of nodes) {
    yield node;
    yield* walk(node.nodes);
  }
}

/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** Pastes into the editor what a clipboard would hold: a PNG file, or text of a type. */
function paste(page: Page, content: { png: string } | { type: string; text: string }) {
  return page.evaluate((what) => {
    const data = new DataTransfer();
    if ('png' in what) {
      const bytes = Uint8Array.from(atob(what.png), (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], 'dot.png', { type: 'image/png' }));
    } else data.setData(what.type, what.text);
    const target = document.querySelector('.editor-body') as HTMLElement;
    target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, content);
}

/**
 * Clicks `text` in the body and waits until the editor's own selection is there: ProseMirror reads a
 * click's caret on the browser's (asynchronous) selectionchange, which a person is never faster than.
 */
async function caretIn(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Page content' }).getByText(text, { exact: true }).click();
  await page.waitForFunction((wanted) => {
    const dom = document.querySelector('.editor-body') as
      | (HTMLElement & { editor?: { state: { selection: { $from: { parent: { textContent: string } } } } } })
      | null;
    return dom?.editor?.state.selection.$from.parent.textContent.includes(wanted) ?? false;
  }, text);
}

describe.skipIf(browserMissing)('pictures, links, pasting and moving in the editor', () => {
  let h: Harness;
  let browser: Browser;
  let base: string;
  let world: SpaceWorld;
  let writer: TestUser;
  let guideId: string;
  let referenceId: string;

  beforeAll(async () => {
    let pageIds: Record<string, string>;
    ({ h, base, browser, world, writer, pageIds } = await spaceForWriters('Handbook', {
      Guide: 'Start here.',
      Reference: 'Every option.',
    }));
    guideId = pageIds.Guide as string;
    referenceId = pageIds.Reference as string;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('uploads a pasted image with alt text, links a page, converts pasted Markdown, moves a block', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const { quietAndAccessible } = await watchPage(page);
    await page.goto(`${base}/s/${world.spaceId}`);
    await signIn(page, writer.user.email);
    await page.getByRole('button', { name: 'Edit' }).click();
    const body = page.getByRole('textbox', { name: 'Page content' });
    await body.waitFor();
    const number = /\/~\/changes\/(\d+)\/edit/.exec(page.url())?.[1] as string;
    if (!page.url().endsWith(guideId))
      await page.goto(`${base}/s/${world.spaceId}/~/changes/${number}/edit/${guideId}`);
    await body.getByText('Start here.').waitFor();
    const crBase = `${world.base}/change-requests/${number}`;
    const stored = async () =>
      (await writer.client.get(`${crBase}/content/page/${guideId}`)).body.document.nodes as DocNode[];
    const saved = page.getByRole('status').filter({ hasText: 'All changes saved' });

    // An image pasted at the end: uploaded, in the change request's files, then its alt text.
    await caretIn(page, 'Start here.');
    await page.keyboard.press('End');
    await paste(page, { png: PNG_BASE64 });
    const altDialog = page.getByRole('dialog', { name: 'Describe the image' });
    await altDialog.getByLabel('Alt text').waitFor();
    await quietAndAccessible();
    await altDialog.getByLabel('Alt text').fill('A red dot');
    await altDialog.getByRole('button', { name: 'Save alt text' }).click();
    await saved.waitFor();
    const files = (await writer.client.get(`${crBase}/content/files`)).body.items as { id: string; name: string }[];
    expect(files.map((f) => f.name)).toEqual(['dot.png']);
    await expect.poll(async () => types(await stored()), { timeout: 5000 }).toContain('images');
    const image = [...walk(await stored())].find((n) => n.type === 'image');
    expect(image?.data).toEqual({ ref: { kind: 'file', file: files[0]?.id }, alt: 'A red dot' });
    // The body shows the picture itself (its file's download URL); its button edits the alt text again.
    const shown = body.getByRole('img', { name: 'A red dot' });
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    await body.getByRole('button', { name: 'Alt text: A red dot' }).click();
    expect(await altDialog.getByLabel('Alt text').inputValue()).toBe('A red dot');
    await altDialog.getByRole('button', { name: 'Skip' }).click();

    // An image dropped on the body is uploaded too (its alt text skipped: the image keeps none).
    await page.evaluate((png) => {
      const data = new DataTransfer();
      data.items.add(new File([Uint8Array.from(atob(png), (c) => c.charCodeAt(0))], 'drop.png', { type: 'image/png' }));
      const target = document.querySelector('.editor-body p') as HTMLElement;
      const box = target.getBoundingClientRect();
      const at = { clientX: box.left + 2, clientY: box.top + 2, bubbles: true, cancelable: true, dataTransfer: data };
      target.dispatchEvent(new DragEvent('drop', at));
    }, PNG_BASE64);
    await altDialog.getByRole('button', { name: 'Skip' }).click();
    await expect
      .poll(async () => ((await writer.client.get(`${crBase}/content/files`)).body.items as { name: string }[]).length)
      .toBe(2);
    await expect.poll(async () => types(await stored()), { timeout: 5000 }).toEqual(['images', 'paragraph', 'images']);

    // Hovering a block shows its drag handle (placed without inline styles the CSP would refuse).
    await body.getByText('Start here.').hover();
    await page.locator('.drag-handle').waitFor({ state: 'visible' });

    // A link to another page, found by its title in the "Link" dialog (Control+K).
    await caretIn(page, 'Start here.');
    await page.keyboard.press('End');
    await page.keyboard.type(' See ');
    await page.keyboard.press('Control+k');
    const linkDialog = page.getByRole('dialog', { name: 'Link' });
    const search = linkDialog.getByLabel('Search pages or type an address');
    // A script address is refused, with the reason.
    await search.fill('javascript:alert(1)');
    await search.press('Enter');
    await linkDialog.getByRole('alert').filter({ hasText: 'not allowed' }).waitFor();
    await quietAndAccessible();
    await search.fill('refer');
    await linkDialog.getByRole('button', { name: 'Reference' }).click();
    await body.locator('a', { hasText: 'Reference' }).waitFor();
    await saved.waitFor();
    await expect
      .poll(async () => [...walk(await stored())].find((n) => n.type === 'link')?.data, { timeout: 5000 })
      .toEqual({ ref: { kind: 'page', page: referenceId } });

    // Markdown pasted into an empty paragraph at the end: a heading and a list, as the importer makes them.
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await paste(page, { type: 'text/plain', text: '## Title\n\n- a\n- b' });
    await body
      .locator('h3', { hasText: 'Title' })
      .or(body.locator('h2', { hasText: 'Title' }))
      .waitFor();
    await saved.waitFor();
    await expect
      .poll(async () => types(await stored()), { timeout: 5000 })
      .toEqual(expect.arrayContaining(['paragraph', 'images', 'heading-2', 'list-unordered']));
    const before = types(await stored());

    // Alt+Shift+ArrowUp moves the heading above the block before it.
    await caretIn(page, 'Title');
    await page.keyboard.press('Alt+Shift+ArrowUp');
    const at = before.indexOf('heading-2');
    const expected = [...before];
    expected.splice(at - 1, 2, 'heading-2', before[at - 1] as string);
    await expect.poll(async () => types(await stored()), { timeout: 5000 }).toEqual(expected);

    // HTML from elsewhere (not this editor's own) converts through the HTML importer; pasted after
    // the list (Enter twice in its last item leaves it).
    await caretIn(page, 'b');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await paste(page, { type: 'text/html', text: '<h1>From the web</h1><p>Some <b>bold</b> words</p>' });
    await body.locator('strong', { hasText: 'bold' }).waitFor();
    await expect
      .poll(
        async () => {
          const nodes = [...walk(await stored())];
          return nodes.some((n) => n.type?.startsWith('heading') && JSON.stringify(n).includes('From the web'));
        },
        { timeout: 5000 },
      )
      .toBe(true);

    // "Image" in the "/" menu opens the file picker (the test catches its click: a native chooser
    // opened from a key press is not reliably intercepted), then takes the picked file like a pasted one.
    const picker = page.getByLabel('Image file');
    await picker.evaluate((input) =>
      input.addEventListener('click', (event) => {
        event.preventDefault();
        input.dataset.opened = 'yes';
      }),
    );
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/image');
    // Enter once the menu has caught up with what was typed (only "Image" left).
    await expect.poll(() => page.getByRole('option').allTextContents()).toEqual(['Image']);
    await page.keyboard.press('Enter');
    await expect.poll(() => picker.getAttribute('data-opened')).toBe('yes');
    await picker.setInputFiles({
      name: 'picked.png',
      mimeType: 'image/png',
      buffer: Buffer.from(PNG_BASE64, 'base64'),
    });
    await altDialog.getByRole('button', { name: 'Skip' }).click();
    await expect
      .poll(async () =>
        ((await writer.client.get(`${crBase}/content/files`)).body.items as { name: string }[])
          .map((f) => f.name)
          .sort(),
      )
      .toEqual(['dot.png', 'drop.png', 'picked.png']);
    await expect
      .poll(async () => [...walk(await stored())].filter((n) => n.type === 'image').length, { timeout: 5000 })
      .toBe(3);
    await quietAndAccessible();
    await page.close();
  }, 120_000);
});
