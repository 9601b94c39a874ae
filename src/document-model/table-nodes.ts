/**
 * The table block as TipTap's table nodes (@tiptap/extension-table, on prosemirror-tables): a table
 * of rows, the first row of header cells (the columns' titles), then one row per record, each cell
 * holding blocks (a text column's fragment, a number as text) or, for a value the editor cannot edit
 * as text (files, users, a checkbox, a select…), one `tableValue` holding it as data. What each
 * node keeps of the format is in table.ts; every attribute is mirrored in the HTML (html-attrs.ts).
 */
import { type AnyExtension, mergeAttributes, Node } from '@tiptap/core';
import { Table, TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import { jsonAttribute } from './html-attrs.js';
import { TABLE } from './registry.js';
import { tableIdsPlugin } from './table-ids.js';
import { tableMergesPlugin } from './table-merges.js';

/** What a cell value looks like written out (a file, a user, a page: their id; a checkbox: ✓). */
export function cellValueText(value: unknown): string {
  if (value === true) return '✓';
  if (value === false) return '✗';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(cellValueText).join(', ');
  if (value && typeof value === 'object') {
    const ref = ((value as { ref?: unknown }).ref ?? value) as Record<string, unknown>;
    const named = [ref.url, ref.file, ref.page, ref.user, ref.space, ref.anchor].find((v) => typeof v === 'string');
    return typeof named === 'string' ? named : '…';
  }
  return '';
}

/** A table cell's content the editor keeps as data (see table.ts): shown, selected and deleted whole. */
const tableValue = Node.create({
  name: TABLE.value,
  atom: true,
  selectable: true,
  addAttributes: () => ({
    value: jsonAttribute('value'),
    absent: {
      default: false,
      parseHTML: (element: HTMLElement) => element.getAttribute('data-absent') === 'true',
      renderHTML: (attrs: Record<string, unknown>) => (attrs.absent ? { 'data-absent': 'true' } : {}),
    },
  }),
  parseHTML: () => [{ tag: `div[data-type="${TABLE.value}"]` }],
  renderHTML: ({ node, HTMLAttributes }) => [
    'div',
    mergeAttributes(HTMLAttributes, { 'data-type': TABLE.value, contenteditable: 'false' }),
    node.attrs.absent ? '' : cellValueText(node.attrs.value),
  ],
});

// A cell holds blocks, or one value kept as data; blocks first, so that a new cell gets a paragraph.
const CELL_CONTENT = `block+ | ${TABLE.value}`;

export const tableExtensions: AnyExtension[] = [
  Table.extend({
    addProseMirrorPlugins() {
      return [...(this.parent?.() ?? []), tableIdsPlugin, tableMergesPlugin];
    },
    addAttributes: () => ({
      key: jsonAttribute('key', null, false),
      data: jsonAttribute('data'),
      extra: jsonAttribute('extra'),
      layout: jsonAttribute('layout'),
      // Key orders of the table's objects where not the usual (table.ts).
      order: jsonAttribute('order', null, false),
    }),
  }),
  TableRow.extend({
    addAttributes: () => ({
      id: jsonAttribute('id', null, false),
      record: jsonAttribute('record', null, false),
      order: jsonAttribute('order', null, false),
    }),
  }),
  TableHeader.extend({
    content: CELL_CONTENT,
    addAttributes() {
      return {
        ...this.parent?.(),
        column: jsonAttribute('column', null, false),
        definition: jsonAttribute('definition', null, false),
        order: jsonAttribute('order', null, false),
      };
    },
  }),
  TableCell.extend({
    content: CELL_CONTENT,
    addAttributes() {
      return {
        ...this.parent?.(),
        fragment: jsonAttribute('fragment', null, false),
        order: jsonAttribute('order', null, false),
      };
    },
  }),
  tableValue,
];
