import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DocumentNode } from './types';

// The app reads its base path from the page as it loads (base.ts): no page here.
let Blocks: typeof import('./blocks').Blocks;
beforeAll(async () => {
  vi.stubGlobal('document', { querySelector: () => null });
  ({ Blocks } = await import('./blocks'));
});
afterAll(() => {
  vi.unstubAllGlobals();
});

const paragraph = (text: string) => ({
  object: 'block',
  type: 'paragraph',
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});

/** A one-column table of `rows` (id, orderIndex, text), records written in that order. */
const table = (rows: Array<[string, string, string]>, cellMerges: unknown[] = []) =>
  ({
    object: 'block',
    type: 'table',
    isVoid: true,
    data: {
      view: { type: 'grid', columns: ['c'] },
      definition: { c: { id: 'c', type: 'text', title: 'Fruit' } },
      records: Object.fromEntries(rows.map(([id, orderIndex]) => [id, { orderIndex, values: { c: `${id}-c` } }])),
      cellMerges,
    },
    fragments: rows.map(([id, , text]) => ({ object: 'fragment', fragment: `${id}-c`, nodes: [paragraph(text)] })),
  }) as unknown as DocumentNode;

const rowTexts = (html: string) => [...html.matchAll(/<td><p>([^<]*)<\/p><\/td>/g)].map((m) => m[1]);

describe('the reader’s table', () => {
  it('orders rows by orderIndex code units, as the editor does, not by the locale', () => {
    // The locale puts "a0a" before "a0V" and "a1" before "Zz"; the fractional index does not.
    const rows: Array<[string, string, string]> = [
      ['r1', 'a1', 'Fourth'],
      ['r2', 'a0a', 'Third'],
      ['r3', 'a0V', 'Second'],
      ['r4', 'Zz', 'First'],
    ];
    expect(['a0a', 'a0V'].sort((a, b) => a.localeCompare(b))).toEqual(['a0a', 'a0V']);
    const html = renderToStaticMarkup(createElement(Blocks, { nodes: [table(rows)] }));
    expect(rowTexts(html)).toEqual(['First', 'Second', 'Third', 'Fourth']);
  });

  it('draws a merged range as its anchor spanning it, the cells it covers left out (as the editor does)', () => {
    const rows: Array<[string, string, string]> = [
      ['r1', 'a0', 'Apple'],
      ['r2', 'a1', 'Pear'],
      ['r3', 'a2', 'Plum'],
    ];
    const merges = [
      { anchor: { record: 'r1', column: 'c' }, rowSpan: 2, colSpan: 1 },
      // Out of the table: not drawn.
      { anchor: { record: 'r3', column: 'c' }, rowSpan: 2, colSpan: 1 },
    ];
    const html = renderToStaticMarkup(createElement(Blocks, { nodes: [table(rows, merges)] }));
    expect(html).toContain(
      '<tr><td colSpan="1" rowSpan="2"><p>Apple</p></td></tr><tr></tr><tr><td><p>Plum</p></td></tr>',
    );
  });
});
