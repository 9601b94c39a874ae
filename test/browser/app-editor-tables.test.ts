/**
 * Tables in the editor, in a real browser over a real server, as a writer edits one: "Table" from
 * the "/" menu inserts a 2 × 2 table under a header row with the caret in its first cell; typing
 * and Tab fill the cells, Shift-Tab goes back a cell, "Add row" adds one (Tab moves into it); it
 * autosaves, a reload shows the cells, and the saved Document (read through the API) is the
 * format's table with the typed values: records in order, text cells as fragments. Axe, console
 * errors and CSP violations are checked.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, SpaceWorld, TestUser } from '../helpers/app.js';
import { APP_OUTPUT, signIn, spaceForWriters, watchPage } from '../helpers/app-browser.js';
import { browserMissing } from '../helpers/browser.js';
import { mergeChanges } from '../helpers/change-requests.js';

interface Fragment {
  fragment?: string;
  nodes: Array<{ nodes?: Array<{ leaves?: Array<{ text: string }> }> }>;
}
interface TableBlock {
  type: string;
  data: {
    view: { columns: string[] };
    records: Record<string, { orderIndex: string; values: Record<string, unknown> }>;
    definition: Record<string, { title: string; type: string }>;
  };
  fragments: Fragment[];
}

/** The table's cells as text, row by row in `orderIndex` order, under the columns' titles. */
function cells(table: TableBlock): string[][] {
  const { view, records, definition } = table.data;
  const text = (fragment?: Fragment) =>
    (fragment?.nodes ?? [])
      .flatMap((block) => (block.nodes ?? []).flatMap((t) => (t.leaves ?? []).map((l) => l.text)))
      .join('');
  const rows = Object.values(records).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1));
  return [
    view.columns.map((id) => definition[id]?.title ?? ''),
    ...rows.map((row) => view.columns.map((id) => text(table.fragments.find((f) => f.fragment === row.values[id])))),
  ];
}

describe.skipIf(browserMissing)('tables in the editor', () => {
  let h: Harness;
  let browser: Browser;
  let base: string;
  let world: SpaceWorld;
  let writer: TestUser;
  let pageId: string;
  let mergedId: string;

  beforeAll(async () => {
    let pageIds: Record<string, string>;
    ({ h, base, browser, world, writer, pageIds } = await spaceForWriters(
      'Catalogue',
      { Prices: 'Our prices.' },
      {
        output: APP_OUTPUT,
        seed: (space) =>
          mergeChanges(space, 'Merged table', [
            { operation: 'insert_page', title: 'Merged', document: { document: MERGED_TABLE } },
          ]),
      },
    ));
    pageId = pageIds.Prices as string;
    const live = (await world.admin.client.get(`${world.base}/content`)).body.pages as { id: string; title: string }[];
    mergedId = live.find((p) => p.title === 'Merged')?.id as string;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('inserts a table from the "/" menu, fills its cells with Tab, adds a row, autosaves and reloads', async () => {
    const page = await browser.newPage();
    const { quietAndAccessible } = await watchPage(page);
    await page.goto(`${base}/s/${world.spaceId}`);
    await signIn(page, writer.user.email);
    await page.getByRole('heading', { level: 1, name: 'Prices' }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    const body = page.getByRole('textbox', { name: 'Page content' });
    await body.waitFor();
    const number = /\/~\/changes\/(\d+)\/edit\//.exec(page.url())?.[1] as string;
    const pageUrl = `${world.base}/change-requests/${number}/content/page/${pageId}`;
    await body.click();
    await body.and(page.locator('.ProseMirror-focused')).waitFor();
    await page.keyboard.press('Control+End');
    await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => done())));
    await page.keyboard.press('Enter');
    await page.keyboard.type('/table');
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    await menu.getByRole('option', { name: 'Table' }).waitFor();
    await page.keyboard.press('Enter');

    const table = body.locator('table');
    await table.waitFor();
    const tools = page.getByRole('toolbar', { name: 'Table' });
    await tools.waitFor();
    expect(await table.locator('th').allTextContents()).toEqual(['Column 1', 'Column 2']);
    // The caret is in the first cell: type, Tab to the next one, and on into the second row.
    await page.keyboard.type('Apple');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1.50');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Pear');
    await page.keyboard.press('Tab');
    await page.keyboard.type('2');
    await tools.getByRole('button', { name: 'Add row' }).click();
    await expect.poll(() => table.locator('tr').count()).toBe(4);
    // The toolbar gives the focus back to the editor in the next frame (TipTap's focus command):
    // keys sent before then go to the button (a person cannot type that fast; a loaded CI can).
    await body.and(page.locator('.ProseMirror-focused')).waitFor();
    await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => done())));
    await page.keyboard.press('Tab');
    await page.keyboard.type('Plum');
    await page.keyboard.press('Tab');
    await page.keyboard.type('3');
    // Shift-Tab selects the cell before: typing replaces it.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.type('Plums');
    expect(await tools.getByRole('button', { name: 'Delete column' }).isEnabled()).toBe(true);
    await quietAndAccessible();

    const expected = [
      ['Column 1', 'Column 2'],
      ['Apple', '1.50'],
      ['Pear', '2'],
      ['Plums', '3'],
    ];
    const storedTable = async () => {
      const nodes = ((await writer.client.get(pageUrl)).body.document?.nodes ?? []) as TableBlock[];
      const block = nodes.find((n) => n.type === 'table');
      return block ? cells(block) : null;
    };
    await expect.poll(storedTable, { timeout: 15_000 }).toEqual(expected);
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();

    // What the API holds is the format's table: text columns, one record per row, cells as fragments.
    const stored = (await writer.client.get(pageUrl)).body.document.nodes.find(
      (n: TableBlock) => n.type === 'table',
    ) as TableBlock & { isVoid: boolean };
    expect(stored.isVoid).toBe(true);
    expect(Object.values(stored.data.definition).map((d) => d.type)).toEqual(['text', 'text']);
    expect(Object.keys(stored.data.records)).toHaveLength(3);
    // The added row's record has a random id (a positional one, "row3", could collide), and keeps it.
    const added = Object.keys(stored.data.records)[2] as string;
    expect(added).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(stored.fragments).toHaveLength(6);

    await page.reload();
    await body.waitFor();
    await table.waitFor();
    const shown = await table
      .locator('tr')
      .evaluateAll((rows) => rows.map((row) => Array.from(row.children, (cell) => cell.textContent ?? '')));
    expect(shown).toEqual(expected);
    await quietAndAccessible();
    await page.screenshot({ path: `${APP_OUTPUT}/editor-table.png` });
    // On a phone, with the caret in a cell (the "Table" toolbar shown).
    await page.setViewportSize({ width: 390, height: 844 });
    await table.locator('td').first().click();
    await tools.waitFor();
    await page.screenshot({ path: `${APP_OUTPUT}/editor-table-phone.png`, fullPage: true });
    expect(Object.keys((await storedTableBlock(writer, pageUrl))?.data.records ?? {})).toContain(added);
    await page.close();
  });

  it('draws merged cells spanning their range, and saves the table byte for byte but the edit', async () => {
    const page = await browser.newPage();
    const { quietAndAccessible } = await watchPage(page);
    await page.goto(`${base}/s/${world.spaceId}/~/page/${mergedId}`);
    await signIn(page, writer.user.email);
    await page.getByRole('heading', { level: 1, name: 'Merged' }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    const body = page.getByRole('textbox', { name: 'Page content' });
    const table = body.locator('table');
    await table.waitFor();
    const number = /\/~\/changes\/(\d+)\/edit\//.exec(page.url())?.[1] as string;
    const pageUrl = `${world.base}/change-requests/${number}/content/page/${mergedId}`;
    // "Apple" spans two columns; the cell it covers is not drawn.
    const anchor = table.locator('td[colspan="2"]');
    expect(await anchor.textContent()).toBe('Apple');
    expect(await table.locator('td[data-merged="covered"]').isHidden()).toBe(true);
    const before = JSON.stringify(await storedTableBlock(writer, pageUrl));

    await table.getByText('Pear').click();
    await page.keyboard.press('End');
    await page.keyboard.type('s');
    await expect
      .poll(async () => JSON.stringify(await storedTableBlock(writer, pageUrl)), { timeout: 15_000 })
      .toBe(before.replace('"Pear"', '"Pears"'));
    await quietAndAccessible();
    await page.close();
  });
});

/** The first table block of the page at `pageUrl` (as the API holds it). */
async function storedTableBlock(reader: TestUser, pageUrl: string): Promise<TableBlock | undefined> {
  const nodes = ((await reader.client.get(pageUrl)).body.document?.nodes ?? []) as TableBlock[];
  return nodes.find((n) => n.type === 'table');
}

const paragraph = (text: string) => ({
  object: 'block',
  type: 'paragraph',
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});

/** A table as another writer may spell it (keys in their own order), "Apple" merged over two columns. */
const MERGED_TABLE = {
  object: 'document',
  nodes: [
    {
      type: 'table',
      object: 'block',
      isVoid: true,
      data: {
        records: {
          r2: { values: { a: 'r2-a', b: 'r2-b' }, orderIndex: 'a1' },
          r1: { values: { b: 'r1-b', a: 'r1-a' }, orderIndex: 'a0' },
        },
        definition: {
          b: { title: 'Colour', id: 'b', type: 'text', textAlignment: 'left' },
          a: { title: 'Fruit', id: 'a', type: 'text', textAlignment: 'left' },
        },
        view: { columns: ['a', 'b'], type: 'grid', hideHeader: false },
        cellMerges: [{ anchor: { record: 'r1', column: 'a' }, rowSpan: 1, colSpan: 2 }],
      },
      fragments: [
        { nodes: [paragraph('Apple')], object: 'fragment', fragment: 'r1-a' },
        { nodes: [paragraph('Red')], object: 'fragment', fragment: 'r1-b' },
        { nodes: [paragraph('Pear')], object: 'fragment', fragment: 'r2-a' },
        { nodes: [paragraph('Green')], object: 'fragment', fragment: 'r2-b' },
      ],
    },
  ],
  data: {},
};
