/**
 * Writing a page with the keyboard only, in a real browser over a real server: signing in, "Edit",
 * the title and the body reached with Tab; a heading and a list by Markdown shortcuts, bold by
 * `**…**`, a hint chosen in the "/" menu with the arrow keys and Enter; Ctrl+Z undoes; the page
 * autosaves. Then a comment on selected text (Shift+arrows, Tab to "Comment"), which the change
 * request stores on the page and the block, and whose marker appears beside that block. axe finds no
 * serious or critical violation, the "/" menu open and the comment form open included. And a key
 * acts where the caret is even when ProseMirror has not yet been told that the browser moved it.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_DIST } from '../../src/web/build.js';
import type { Harness, SpaceWorld, TestUser } from '../helpers/app.js';
import { signIn, spaceForWriters, watchPage } from '../helpers/app-browser.js';
import { browserMissing } from '../helpers/browser.js';
import { givePassword, PASSWORD } from '../helpers/sessions.js';

interface DocNode {
  type?: string;
  key?: string;
  nodes?: DocNode[];
  leaves?: { text: string; marks?: { type: string }[] }[];
}
const text = (nodes: DocNode[] = []): string =>
  nodes.map((n) => (n.leaves ?? []).map((l) => l.text).join('') + text(n.nodes)).join(' ');

/** A person's pace (ms between keys): ProseMirror's input rules read each typed character. */
const TYPING = { delay: 15 };

/**
 * Waits a frame: a caret moved by the browser (Ctrl+End, arrows) reaches ProseMirror through the
 * `selectionchange` event, after the key; a person's next key never comes that soon.
 */
const settle = (page: Page) => page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => done())));

/** Presses Tab until the focused element has `name` (its label or text): keyboard only. */
async function tabTo(page: Page, name: string, limit = 40): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return '';
      const labelled = (el as HTMLInputElement).labels?.[0]?.textContent;
      return (el.getAttribute('aria-label') ?? labelled ?? el.textContent ?? '').trim();
    });
    if (focused === name) return;
    seen.push(focused);
  }
  throw new Error(`Tab never reached "${name}" (went through: ${seen.join(' | ')})`);
}

/** The file of the chunk the editor loads its drag handle from (Vite's manifest: its dynamic entry). */
function dragHandleChunk(): string {
  const manifest = JSON.parse(readFileSync(`${APP_DIST}/.vite/manifest.json`, 'utf8')) as Record<
    string,
    { file: string; isDynamicEntry?: boolean }
  >;
  const entry = Object.entries(manifest).find(
    ([source, chunk]) => chunk.isDynamicEntry && source.includes('@tiptap/extension-drag-handle'),
  );
  if (!entry) throw new Error('no drag handle chunk in the manifest');
  return entry[1].file;
}

describe.skipIf(browserMissing)('writing with the keyboard only', () => {
  let h: Harness;
  let browser: Browser;
  let base: string;
  let world: SpaceWorld;
  let writer: TestUser;

  beforeAll(async () => {
    ({ h, base, browser, world, writer } = await spaceForWriters('Handbook', {
      'Getting started': 'Run the installer.',
    }));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('writes, undoes and comments without the mouse', async () => {
    const page = await browser.newPage();
    const { quietAndAccessible } = await watchPage(page);
    await page.goto(`${base}/s/${world.spaceId}`);
    await page.getByLabel('Email').waitFor();
    await tabTo(page, 'Email');
    await page.keyboard.type(writer.user.email, TYPING);
    await tabTo(page, 'Password');
    await page.keyboard.type(PASSWORD, TYPING);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Getting started' }).waitFor();

    await tabTo(page, 'Edit');
    await page.keyboard.press('Enter');
    const body = page.getByRole('textbox', { name: 'Page content' });
    await body.waitFor();
    const match = /\/s\/[^/]+\/~\/changes\/(\d+)\/edit\/([^/?]+)/.exec(page.url());
    const [number, pageId] = [match?.[1] as string, match?.[2] as string];
    const saved = page.getByRole('status').filter({ hasText: 'All changes saved' });

    await tabTo(page, 'Page title');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Keyboard guide', TYPING);
    await tabTo(page, 'Page content');
    // ProseMirror takes the focus (and its selection) a moment after the browser gives it.
    await body.and(page.locator('.ProseMirror-focused')).waitFor();
    // Each step waits for the editor to show the last one, as the eyes of a person typing do.
    await page.keyboard.press('Control+End');
    await settle(page);
    await page.keyboard.press('Enter');
    await page.keyboard.type('# Overview', TYPING);
    await body.locator('h2', { hasText: 'Overview' }).waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.type('- one item', TYPING);
    await body.locator('ul li', { hasText: 'one item' }).waitFor();
    await page.keyboard.press('Enter');
    await settle(page);
    await page.keyboard.press('Enter');
    // Out of the list: the caret is in a paragraph of its own, in no list item and no heading.
    await expect
      .poll(() =>
        page.evaluate(() => {
          const node = getSelection()?.anchorNode;
          const element = node instanceof Element ? node : node?.parentElement;
          return element?.closest('p') !== null && element?.closest('li, h2, h3, h4') === null;
        }),
      )
      .toBe(true);
    await page.keyboard.type('Some **bold** words', TYPING);
    await body.locator('p strong', { hasText: 'bold' }).waitFor();
    await page.keyboard.press('Enter');
    expect(await body.locator('p').first().textContent()).toBe('Run the installer.');

    // The "/" menu, with the arrows: down to "Hint", then Enter.
    await page.keyboard.type('/', TYPING);
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    await menu.waitFor();
    await quietAndAccessible();
    const offered = await menu.getByRole('option').allTextContents();
    const hint = offered.indexOf('Hint');
    expect(hint).toBeGreaterThan(0);
    for (let i = 0; i < hint; i++) await page.keyboard.press('ArrowDown');
    expect(await menu.getByRole('option', { selected: true }).textContent()).toBe('Hint');
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    await page.keyboard.type('Mind the gap', TYPING);

    // Undo takes back what was typed last (after a pause: the history groups quick typing).
    await page.waitForTimeout(600);
    await page.keyboard.type(' oops', TYPING);
    await body.getByText('Mind the gap oops').waitFor();
    await page.keyboard.press('Control+z');
    await body.getByText('Mind the gap oops').waitFor({ state: 'detached' });
    await saved.waitFor();

    const pageUrl = `${world.base}/change-requests/${number}/content/page/${pageId}`;
    const stored = await writer.client.get(pageUrl);
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    expect(stored.body.title).toBe('Keyboard guide');
    const nodes = stored.body.document.nodes as DocNode[];
    const types = nodes.map((n) => n.type);
    expect(types.slice(0, 5)).toEqual(['paragraph', 'heading-1', 'list-unordered', 'paragraph', 'hint']);
    const bold = nodes[3]?.nodes?.[0]?.leaves?.find((l) => l.text === 'bold');
    expect(bold?.marks?.map((m) => m.type)).toEqual(['bold']);
    expect(text(nodes.slice(4, 5))).toContain('Mind the gap');
    expect(text(nodes)).not.toContain('oops');

    // A comment on the selected words of the heading: Shift+arrows select, Tab reaches "Comment".
    await body.locator('h2', { hasText: 'Overview' }).waitFor();
    await page.keyboard.press('Control+Home');
    await settle(page);
    await page.keyboard.press('ArrowDown');
    await settle(page);
    await page.keyboard.press('Shift+End');
    await settle(page);
    await page.getByRole('button', { name: 'Comment', exact: true }).waitFor();
    await tabTo(page, 'Comment', 3);
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'Comment on the selection' });
    await form.waitFor();
    await page.keyboard.type('Is this the right heading?', TYPING);
    await quietAndAccessible();
    await tabTo(page, 'Post comment', 3);
    await page.keyboard.press('Enter');
    const marker = page.getByRole('button', { name: '1 comment on this block' });
    await marker.waitFor();
    await form.waitFor({ state: 'detached' });

    // Stored on the page and on the heading, whose new key autosave wrote.
    const comments = await writer.client.get(
      `${world.base}/change-requests/${number}/comments?targetPage=${pageId}&format=markdown`,
    );
    expect(comments.status).toBe(200);
    expect(comments.body.items).toHaveLength(1);
    const [comment] = comments.body.items;
    expect(comment.body.markdown).toContain('Overview');
    expect(comment.body.markdown).toContain('Is this the right heading?');
    expect(comment.target.page.id).toBe(pageId);
    await saved.waitFor();
    const after = await writer.client.get(pageUrl);
    const heading = (after.body.document.nodes as DocNode[]).find((n) => n.type === 'heading-1');
    expect(heading?.key).toBe(comment.target.node.id);

    // The marker sits beside the heading and opens the thread.
    const [markerBox, headingBox] = await Promise.all([
      marker.boundingBox(),
      body.locator('h2', { hasText: 'Overview' }).boundingBox(),
    ]);
    expect(Math.abs((markerBox?.y ?? 0) - (headingBox?.y ?? 1000))).toBeLessThan(24);
    await marker.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Is this the right heading?').waitFor();
    await quietAndAccessible();

    // At 390 px the editor still works and still passes.
    await page.setViewportSize({ width: 390, height: 800 });
    await marker.waitFor();
    await quietAndAccessible();
    await page.close();
  }, 120_000);

  it('keeps the "/" menu open while the drag handle arrives', async () => {
    // The drag handle's script comes once the page is in, about a second after the editor opens:
    // held back here until the "/" menu is open, it arrives while the menu is, every time.
    const writerNow = await h.member(world.orgId, 'edit');
    await givePassword(h.db, writerNow.user.id);
    const page = await browser.newPage();
    const { quietAndAccessible } = await watchPage(page);
    let release = () => {};
    const held = new Promise<void>((done) => {
      release = done;
    });
    let requested = false;
    await page.route(`**/${dragHandleChunk()}`, async (route) => {
      requested = true;
      await held;
      await route.continue();
    });
    await page.goto(`${base}/s/${world.spaceId}`);
    await signIn(page, writerNow.user.email);
    await page.getByRole('button', { name: 'Edit' }).click();
    const body = page.getByRole('textbox', { name: 'Page content' });
    await body.waitFor();
    await body.focus();
    await body.and(page.locator('.ProseMirror-focused')).waitFor();
    await page.keyboard.press('Control+End');
    await settle(page);
    await page.keyboard.press('Enter');
    await page.keyboard.type('/', TYPING);
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    await menu.waitFor();
    expect(requested).toBe(true);
    release();
    await page.locator('.drag-handle').waitFor({ state: 'attached' });
    await settle(page);
    expect(await menu.isVisible()).toBe(true);
    // The menu still answers its keys: down to "Heading 1", Enter.
    await page.keyboard.press('ArrowDown');
    expect(await menu.getByRole('option', { selected: true }).textContent()).toBe('Heading 1');
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    await page.keyboard.type('Prices', TYPING);
    await body.locator('h2', { hasText: 'Prices' }).waitFor();
    await quietAndAccessible();
    await page.close();
  }, 120_000);

  it('acts on a key where the caret is, before the browser has said that it moved', async () => {
    // The browser tells ProseMirror of a caret it moved (Ctrl+End here) by `selectionchange`, an
    // ordinary task, while Chrome runs input first: under load the next key came before it. Held
    // back here, that event is late every time.
    const other = await h.member(world.orgId, 'edit');
    await givePassword(h.db, other.user.id);
    const page = await browser.newPage();
    const { quietAndAccessible } = await watchPage(page);
    await page.goto(`${base}/s/${world.spaceId}`);
    await signIn(page, other.user.email);
    await page.getByRole('button', { name: 'Edit' }).click();
    const body = page.getByRole('textbox', { name: 'Page content' });
    await body.waitFor();
    const match = /\/s\/[^/]+\/~\/changes\/(\d+)\/edit\/([^/?]+)/.exec(page.url());
    const [number, pageId] = [match?.[1] as string, match?.[2] as string];
    await body.focus();
    await body.and(page.locator('.ProseMirror-focused')).waitFor();
    await settle(page);
    await page.evaluate(() => {
      const late = (event: Event) => event.stopImmediatePropagation();
      (window as unknown as { late: typeof late }).late = late;
      window.addEventListener('selectionchange', late, true);
    });
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.evaluate(() =>
      window.removeEventListener('selectionchange', (window as unknown as { late: () => void }).late, true),
    );
    await page.keyboard.type('Last words', TYPING);
    expect(await body.locator('p').allTextContents()).toEqual(['Run the installer.', 'Last words']);
    // Saved so: each paragraph's text, in order.
    const pageUrl = `${world.base}/change-requests/${number}/content/page/${pageId}`;
    await expect
      .poll(async () => ((await other.client.get(pageUrl)).body.document.nodes as DocNode[]).map((n) => text([n])), {
        timeout: 20_000,
      })
      .toEqual(['Run the installer.', 'Last words']);
    await quietAndAccessible();
    await page.close();
  }, 120_000);
});
