/**
 * A page much longer than a screen in the editor of a real browser: it opens whole (its first
 * screenful made with the editor, the rest appended: app/src/features/editor/fill.ts) and is not an
 * edit (no "Unsaved changes", nothing to undo); Ctrl+End puts the caret at the end of its last block
 * (with `content-visibility: auto` on the blocks, tried to lay out less, Chrome put it at the start
 * of a last block not drawn yet), the typing lands there, Ctrl+Z takes back only that typing, and
 * the page is saved whole.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, SpaceWorld, TestUser } from '../helpers/app.js';
import { signIn, spaceForWriters, watchPage } from '../helpers/app-browser.js';
import { browserMissing } from '../helpers/browser.js';

const SECTIONS = 40;
const LAST = 'Closing paragraph of the long page.';

/** Sections of a heading, two paragraphs, a list and a code block: about 200 blocks. */
const markdown = [
  ...Array.from({ length: SECTIONS }, (_, s) =>
    [
      `## Section ${s}`,
      `Paragraph ${s}.0: ${'words of the section '.repeat(12)}`,
      `Paragraph ${s}.1: ${'more words of the section '.repeat(10)}`,
      '- first item\n- second item',
      '```ts\nconst section = 1;\n```',
    ].join('\n\n'),
  ),
  LAST,
].join('\n\n');
const BLOCKS = SECTIONS * 5 + 1;

interface DocNode {
  type?: string;
  nodes?: DocNode[];
  leaves?: { text: string }[];
}
const text = (nodes: DocNode[] = []): string =>
  nodes.map((n) => (n.leaves ?? []).map((l) => l.text).join('') + text(n.nodes)).join(' ');

describe.skipIf(browserMissing)('a long page in the editor', () => {
  let h: Harness;
  let browser: Browser;
  let base: string;
  let world: SpaceWorld;
  let writer: TestUser;

  beforeAll(async () => {
    ({ h, base, browser, world, writer } = await spaceForWriters('Handbook', { 'Long page': markdown }));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('opens whole and unedited, goes to its end with Ctrl+End, types there, undoes, saves it whole', async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1200, height: 800 });
    const { errors, quietAndAccessible } = await watchPage(page);
    await page.goto(`${base}/s/${world.spaceId}`);
    await signIn(page, writer.user.email);
    await page.getByRole('button', { name: 'Edit' }).click();
    const body = page.getByRole('textbox', { name: 'Page content' });
    await body.locator('p', { hasText: LAST }).waitFor({ state: 'attached' });
    expect(await body.evaluate((element) => element.childElementCount)).toBe(BLOCKS);
    expect(await body.evaluate((element) => element.firstElementChild?.textContent)).toBe('Section 0');
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
    const match = /\/s\/[^/]+\/~\/changes\/(\d+)\/edit\/([^/?]+)/.exec(page.url());
    const pageUrl = `${world.base}/change-requests/${match?.[1]}/content/page/${match?.[2]}`;

    await body.click({ position: { x: 5, y: 5 } });
    await body.and(page.locator('.ProseMirror-focused')).waitFor();
    await page.keyboard.press('Control+End');
    await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => done())));
    await page.keyboard.type(' The end.', { delay: 15 });
    const last = body.locator('p', { hasText: `${LAST} The end.` });
    await last.waitFor();

    const saved = async () => (await writer.client.get(pageUrl)).body.document.nodes as DocNode[];
    await expect.poll(async () => text((await saved()).slice(-1)), { timeout: 20_000 }).toBe(`${LAST} The end.`);
    const stored = await saved();
    expect(stored).toHaveLength(BLOCKS);
    expect(text(stored.slice(0, 1))).toBe('Section 0');

    // Undo takes back the typing, not the blocks appended as the page opened.
    await page.keyboard.press('Control+z');
    await body.locator('p', { hasText: `${LAST} The end.` }).waitFor({ state: 'detached' });
    expect(await body.evaluate((element) => element.childElementCount)).toBe(BLOCKS);
    await page.keyboard.press('Control+z');
    expect(await body.evaluate((element) => element.childElementCount)).toBe(BLOCKS);
    await expect.poll(async () => text((await saved()).slice(-1)), { timeout: 20_000 }).toBe(LAST);
    expect(errors).toEqual([]);
    await quietAndAccessible();
    await page.close();
  }, 120_000);
});
