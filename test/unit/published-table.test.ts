/**
 * The published site's table: rows in `orderIndex` order, merged cells (`cellMerges`) drawn as the
 * editor draws them (one shared resolver, src/document-model/cell-merges.ts): the anchor spans its
 * range, the cells it covers are not drawn, a merge that cannot be drawn is left out.
 */
import { Node } from '@tiptap/pm/model';
import { toHtml } from 'hast-util-to-html';
import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/content/document.js';
import { documentSchema, documentToEditor } from '../../src/document-model/index.js';
import { tableMerges } from '../../src/document-model/table-merges.js';
import { DocumentRenderer } from '../../src/published/render/document.js';
import { codeThemes } from '../../src/published/render/highlight.js';

const paragraph = (text: string) => ({
  object: 'block',
  type: 'paragraph',
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});

/** Three rows (keys out of order) of three text columns, each cell's text its record and column. */
function table(cellMerges: unknown[]): Block {
  const rows = { r3: 'a2', r1: 'a0', r2: 'a1' };
  const columns = ['a', 'b', 'c'];
  return {
    object: 'block',
    type: 'table',
    isVoid: true,
    data: {
      view: { type: 'grid', columns, hideHeader: false },
      records: Object.fromEntries(
        Object.entries(rows).map(([id, orderIndex]) => [
          id,
          { orderIndex, values: Object.fromEntries(columns.map((c) => [c, `${id}-${c}`])) },
        ]),
      ),
      definition: Object.fromEntries(
        columns.map((c) => [c, { id: c, title: c.toUpperCase(), type: 'text', textAlignment: 'left' }]),
      ),
      cellMerges,
    },
    fragments: Object.keys(rows).flatMap((id) =>
      columns.map((c) => ({ object: 'fragment', fragment: `${id}-${c}`, nodes: [paragraph(`${id}${c}`)] })),
    ),
  } as unknown as Block;
}

function render(block: Block): string {
  const themes = codeThemes({ light: 'github-light', dark: 'github-dark' });
  const renderer = new DocumentRenderer({
    link: () => null,
    file: () => null,
    highlighter: null,
    codeThemes: themes,
    externalTarget: 'self',
  });
  return renderer
    .render([block])
    .body.map((node) => toHtml(node))
    .join('');
}

/** The body's rows: each cell as its text, with `[colspan×rowspan]` when it spans. */
function bodyRows(html: string): string[][] {
  const body = /<tbody>(.*)<\/tbody>/.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<td([^>]*)>(.*?)<\/td>/g)].map(([, attrs, inner]) => {
      const span = /colspan="(\d+)" rowspan="(\d+)"/.exec(attrs ?? '');
      return `${(inner ?? '').replace(/<[^>]+>/g, '')}${span ? `[${span[1]}×${span[2]}]` : ''}`;
    }),
  );
}

describe('the published table', () => {
  it('draws merged cells spanning their range, without the cells they cover', () => {
    const merges = [
      { anchor: { record: 'r1', column: 'a' }, rowSpan: 1, colSpan: 2 },
      { anchor: { record: 'r2', column: 'c' }, rowSpan: 2, colSpan: 1 },
      // Overlapping the first, out of the table, of one cell, naming no record: not drawn.
      { anchor: { record: 'r1', column: 'b' }, rowSpan: 2, colSpan: 1 },
      { anchor: { record: 'r3', column: 'a' }, rowSpan: 2, colSpan: 1 },
      { anchor: { record: 'r3', column: 'b' }, rowSpan: 1, colSpan: 1 },
      { anchor: { record: 'gone', column: 'a' }, rowSpan: 1, colSpan: 2 },
    ];
    const block = table(merges);
    expect(bodyRows(render(block))).toEqual([
      ['r1a[2×1]', 'r1c'],
      ['r2a', 'r2b', 'r2c[1×2]'],
      ['r3a', 'r3b'],
    ]);
    // The editor draws the same merges (rows in order, positionally).
    const doc = Node.fromJSON(documentSchema(), documentToEditor({ object: 'document', data: {}, nodes: [block] }));
    expect(tableMerges(doc.child(0))).toEqual([
      { row: 0, column: 0, rowSpan: 1, colSpan: 2 },
      { row: 1, column: 2, rowSpan: 2, colSpan: 1 },
    ]);
  });

  it('draws every cell of a table without merges, rows in orderIndex order', () => {
    expect(bodyRows(render(table([])))).toEqual([
      ['r1a', 'r1b', 'r1c'],
      ['r2a', 'r2b', 'r2c'],
      ['r3a', 'r3b', 'r3c'],
    ]);
  });
});
