/**
 * The editor in a real browser over a real server, as a writer uses it: "Edit" on a space opens a
 * change request; a title, a heading by the "#" shortcut, a list by "-", a code block from the "/"
 * menu; autosave, then a reload shows it all; someone else's save in between is a conflict
 * ("Reload" takes theirs, "Keep mine" writes mine over it); undo after a save; the page tree's
 * "New page", move and delete with undo; "Preview"; "Submit for review". Each screen is checked with
 * axe, for console errors and Content-Security-Policy violations. One page, reused: CI time is tight.
 */

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, SpaceWorld, TestUser } from '../helpers/app.js';
import { APP_OUTPUT, signIn, spaceForWriters, watchPage } from '../helpers/app-browser.js';
import { browserMissing } from '../helpers/browser.js';

interface DocNode {
  type?: string;
  nodes?: DocNode[];
  leaves?: { text: string }[];
}
const types = (nodes: DocNode[] = []): string[] => nodes.map((n) => n.type ?? '');
const text = (nodes: DocNode[] = []): string =>
  nodes.map((n) => (n.leaves ?? []).map((l) => l.text).join('') + text(n.nodes)).join(' ');

describe.skipIf(browserMissing)('the editor in a browser', () => {
  let h: Harness;
  let browser: Browser;
  let base: string;
  let world: SpaceWorld;
  let writer: TestUser;
  let reviewer: TestUser;
  let livePageId: string;

  beforeAll(async () => {
    let pageIds: Record<string, string>;
    ({ h, base, browser, world, writer, pageIds } = await spaceForWriters(
      'Handbook',
      { 'Getting started': 'Run the installer.' },
      {
        output: APP_OUTPUT,
      },
    ));
    livePageId = pageIds['Getting started'] as string;
    reviewer = await h.member(world.orgId, 'review');
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  /** The browser logs the refused save (412) as a failed resource: that one is expected here. */
  function takeRefusedSave(errors: string[]) {
    const refused = errors.filter((e) => e.includes('status of 412'));
    expect(refused.length).toBeGreaterThan(0);
    errors.splice(0, errors.length, ...errors.filter((e) => !refused.includes(e)));
  }

  it('writes a page in a change request: shortcuts, "/" menu, autosave, conflicts, tree, preview, review', async () => {
    const page = await browser.newPage();
    const { errors, csp, quietAndAccessible } = await watchPage(page);
    await page.goto(`${base}/s/${world.spaceId}`);
    await signIn(page, writer.user.email);
    await page.getByRole('heading', { level: 1, name: 'Getting started' }).waitFor();

    // "Edit" starts the writer's change request; the editor chunk loads only now.
    const scripts = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((n) => n.endsWith('.js')),
      );
    expect((await scripts()).some((name) => name.includes('EditorScreen'))).toBe(false);
    await page.getByRole('button', { name: 'Edit' }).click();
    const body = page.getByRole('textbox', { name: 'Page content' });
    await body.waitFor();
    expect(await body.getAttribute('aria-multiline')).toBe('true');
    const match = /\/s\/[^/]+\/~\/changes\/(\d+)\/edit\/([^/?]+)/.exec(page.url());
    expect(match?.[2]).toBe(livePageId);
    const number = match?.[1] as string;
    const mine = await writer.client.get(`${world.base}/change-requests?creator=${writer.user.id}`);
    expect(mine.body.items.map((c: { number: number }) => String(c.number))).toEqual([number]);
    const pageUrl = `${world.base}/change-requests/${number}/content/page/${livePageId}`;
    const saved = page.getByRole('status').filter({ hasText: 'All changes saved' });
    // A click, then Ctrl+End, as a person does: ProseMirror takes the focus (and reads its selection)
    // a moment after the browser gives it; keys sent before would land where the click put the caret.
    const frame = () => page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => done())));
    const toEnd = async () => {
      await body.click();
      await body.and(page.locator('.ProseMirror-focused')).waitFor();
      await page.keyboard.press('Control+End');
      await frame();
    };

    // Title, a heading by "#", a list by "-", a code block from the "/" menu.
    await page.getByLabel('Page title').fill('Writing guide');
    await toEnd();
    await page.keyboard.press('Enter');
    await page.keyboard.type('# Overview');
    await page.keyboard.press('Enter');
    await page.keyboard.type('- first item');
    await page.keyboard.press('Enter');
    await page.keyboard.type('second item');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/cod');
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    await menu.getByRole('option', { name: 'Code block' }).waitFor();
    expect(await menu.getByRole('option').allTextContents()).toEqual(['Code block']);
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    // Every block type is offered; the arrow keys move the highlight.
    const offered = await menu.getByRole('option').allTextContents();
    for (const name of [
      'Heading 1',
      'Heading 2',
      'Bulleted list',
      'Numbered list',
      'Task list',
      'Code block',
      'Hint',
      'Table',
      'Quote',
      'Divider',
    ])
      expect(offered).toContain(name);
    await page.keyboard.press('ArrowDown');
    expect(await menu.getByRole('option', { selected: true }).textContent()).toBe(offered[1]);
    await quietAndAccessible();
    await page.keyboard.type('code');
    await page.keyboard.press('Enter');
    await page.keyboard.type('npm test');
    // "All changes saved" may still be on screen from the save before this typing (its "Unsaved"
    // not drawn yet on a busy machine): wait for the server to hold the code block itself.
    const storedTypes = async () =>
      types(((await writer.client.get(pageUrl)).body.document?.nodes ?? []) as DocNode[]).slice(0, 4);
    await expect.poll(storedTypes, { timeout: 15_000 }).toEqual(['paragraph', 'heading-1', 'list-unordered', 'code']);
    await saved.waitFor();

    const stored = await writer.client.get(pageUrl);
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    expect(stored.body.title).toBe('Writing guide');
    const nodes = stored.body.document.nodes as DocNode[];
    expect(types(nodes).slice(0, 4)).toEqual(['paragraph', 'heading-1', 'list-unordered', 'code']);
    // TipTap keeps an empty paragraph after a closing block (its trailing node), to type into.
    expect(text(nodes.slice(4)).trim()).toBe('');
    expect(text(nodes)).toContain('second item');

    // A reload reads it back from the server.
    await page.reload();
    await body.waitFor();
    await body.locator('h2', { hasText: 'Overview' }).waitFor();
    // Fetched as index.html was read (its preload hints, src/web/preload.ts), and the app took those
    // answers: none of its first requests was made again.
    const firstRequests = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => [new URL(e.name).pathname, (e as PerformanceResourceTiming).initiatorType]),
    );
    for (const path of ['/auth/status', world.base, pageUrl])
      expect(
        firstRequests.filter(([name]) => name === path),
        path,
      ).toEqual([[path, 'link']]);
    expect(await body.locator('ul li').allTextContents()).toEqual(['first item', 'second item']);
    expect(await body.locator('pre').textContent()).toBe('npm test');
    expect(await page.getByLabel('Page title').inputValue()).toBe('Writing guide');
    await quietAndAccessible();
    await page.screenshot({ path: `${APP_OUTPUT}/editor.png` });

    // Someone else saves; my next save (If-Match on the revision I saw) is a conflict.
    const theirs = (title: string, markdown: string) =>
      writer.client.post(`${world.base}/change-requests/${number}/content`, {
        changes: [{ operation: 'update_page', page: livePageId, title, document: { markdown } }],
      });
    expect((await theirs('Their title', 'Their text.')).status).toBe(200);
    await body.locator('pre').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' --watch');
    const dialog = page.getByRole('dialog', { name: 'Someone else saved changes' });
    await dialog.getByText('Their text.').waitFor();
    await dialog.getByText(/yours: “Writing guide”/).waitFor();
    takeRefusedSave(errors);
    await quietAndAccessible();
    // "Reload" takes theirs.
    await dialog.getByRole('button', { name: 'Reload' }).click();
    await body.getByText('Their text.').waitFor();
    expect(await page.getByLabel('Page title').inputValue()).toBe('Their title');
    expect(await body.locator('pre').count()).toBe(0);

    // Again, and "Keep mine" writes mine over theirs, on their revision.
    expect((await theirs('Their second title', 'Their second text.')).status).toBe(200);
    await toEnd();
    await page.keyboard.type(' Mine.');
    await dialog.getByText('Their second text.').waitFor();
    takeRefusedSave(errors);
    await dialog.getByRole('button', { name: 'Keep mine' }).click();
    await saved.waitFor();
    const kept = await writer.client.get(pageUrl);
    expect(kept.body.title).toBe('Their title');
    expect(text(kept.body.document.nodes)).toContain('Their text. Mine.');

    // Undo works across saves: the typed words go, and that is saved too.
    await toEnd();
    await page.keyboard.type(' Extra');
    await saved.waitFor();
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await body.textContent())?.includes('Extra')).toBe(false);
    await saved.waitFor();
    await expect.poll(async () => text((await writer.client.get(pageUrl)).body.document.nodes)).not.toContain('Extra');

    // Leaving with unsaved work asks first; "Stay" keeps the editor, which then saves.
    await page.keyboard.type(' Later');
    await page.getByRole('link', { name: 'Handbook' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.getByRole('button', { name: 'Stay' }).click();
    await saved.waitFor();
    expect(page.url()).toContain(`/edit/${livePageId}`);

    // Page tree: a new page, moved up by the keyboard's menu, deleted and brought back by "Undo".
    // Going to another page saves what was just typed at once (no question asked).
    const tree = page.getByRole('navigation', { name: 'Pages of the change request' });
    await toEnd();
    await page.keyboard.type(' Quick');
    await tree.getByRole('button', { name: 'New page' }).click();
    await page.waitForURL((url) => url.pathname.includes('/edit/') && !url.pathname.endsWith(livePageId));
    await expect
      .poll(async () => text((await writer.client.get(pageUrl)).body.document.nodes))
      .toContain('Later Quick');
    await tree.getByRole('link', { name: 'Untitled' }).waitFor();
    // A table from the "/" menu (edited cell by cell, see app-editor-tables.test.ts; its markup must
    // keep to the Content-Security-Policy too).
    await body.click();
    await page.keyboard.type('/table');
    await page.keyboard.press('Enter');
    await body.locator('table').waitFor();
    await saved.waitFor();
    expect(csp, 'CSP violations').toEqual([]);
    await tree.getByRole('button', { name: 'Actions for Untitled' }).click();
    await page.getByRole('menuitem', { name: 'Rename…' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename “Untitled”' });
    await rename.getByLabel('Title').fill('Appendix');
    await rename.getByRole('button', { name: 'Save' }).click();
    await tree.getByRole('link', { name: 'Appendix' }).waitFor();
    await tree.getByRole('button', { name: 'Actions for Appendix' }).click();
    await page.getByRole('menuitem', { name: 'Move up' }).click();
    const order = async () =>
      (
        (await writer.client.get(`${world.base}/change-requests/${number}/content`)).body.pages as { title: string }[]
      ).map((p) => p.title);
    await expect.poll(order).toEqual(['Appendix', 'Their title']);
    await tree.getByRole('button', { name: 'Actions for Appendix' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Deleted “Appendix”' })
      .getByRole('button', { name: 'Undo' })
      .click();
    await tree.getByRole('link', { name: 'Appendix' }).waitFor();
    expect(await order()).toEqual(['Appendix', 'Their title']);

    // Preview: the change request's page drawn as readers will see it.
    await tree.getByRole('link', { name: 'Their title' }).click();
    await body.waitFor();
    await page.getByRole('link', { name: 'Preview' }).click();
    await page.getByRole('heading', { level: 1, name: 'Their title' }).waitFor();
    await page.getByText('Their text. Mine.').waitFor();
    await quietAndAccessible();
    await page.getByRole('link', { name: 'Back to editing' }).click();
    await body.waitFor();

    // Submit for review: the reviewer is asked.
    await page.getByRole('button', { name: 'Submit for review' }).click();
    const submit = page.getByRole('dialog', { name: 'Submit for review' });
    await submit.getByRole('checkbox', { name: reviewer.user.display_name }).check();
    await quietAndAccessible();
    await submit.getByRole('button', { name: 'Request review' }).click();
    await submit.getByText('Review requested.').waitFor();
    const requested = await writer.client.get(`${world.base}/change-requests/${number}/requested-reviewers`);
    expect(requested.body.items.map((r: { user: { id: string } }) => r.user.id)).toEqual([reviewer.user.id]);
    await submit.getByRole('button', { name: 'Close' }).click();

    // At a phone's width nothing overflows.
    await page.setViewportSize({ width: 390, height: 844 });
    await body.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false);
    await quietAndAccessible();
    await page.close();
  });
});
