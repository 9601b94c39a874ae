/**
 * The table block in the shared Document model (src/document-model/table.ts): read cell by cell
 * (header row of titles, text cells holding their fragments, numbers as text, other values kept as
 * data), written back exactly, and edited the way the editor edits it (prosemirror-tables' own
 * commands on an editor state): typing in cells, adding and deleting rows and columns.
 */
import { Node } from '@tiptap/pm/model';
import { EditorState, TextSelection, type Transaction } from '@tiptap/pm/state';
import { addColumnAfter, addRowAfter, deleteColumn, deleteRow } from '@tiptap/pm/tables';
import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../src/content/markdown.js';
import {
  checkDocumentModel,
  documentSchema,
  documentToEditor,
  type EditorNode,
  editorToDocument,
} from '../../src/document-model/index.js';
import * as tablePlugins from '../../src/document-model/table-ids.js';
import { tableMerges, tableMergesPlugin } from '../../src/document-model/table-merges.js';
import { expectLossless } from '../helpers/document-model.js';

type Value = Record<string, unknown>;
const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const p = (value: string) => ({ object: 'block', type: 'paragraph', nodes: [text(value)] });
const cell = (name: string, value: string, extra: Value = {}) => ({
  object: 'fragment',
  fragment: name,
  ...extra,
  nodes: [p(value)],
});

/** Two text columns (one 30 % wide), a number, a checkbox, a hidden "notes" column, rows out of key order. */
function productTable(): Value {
  return {
    object: 'block',
    type: 'table',
    key: 't1',
    isVoid: true,
    data: {
      view: {
        type: 'grid',
        columns: ['name', 'price', 'stock', 'note'],
        hideHeader: false,
        columnWidths: { name: 30, note: 20, gone: 5 },
      },
      records: {
        r2: { orderIndex: 'a1', values: { name: 'f-r2', price: 2.5, stock: false, note: 'f-r2-note', notes: 'x' } },
        r1: { orderIndex: 'a0', values: { name: 'f-r1', price: 10, stock: true, note: 'f-r1-note' } },
      },
      definition: {
        name: { id: 'name', title: 'Name', type: 'text', textAlignment: 'left' },
        price: { id: 'price', title: 'Price', type: 'number' },
        stock: { id: 'stock', title: 'In stock', type: 'checkbox' },
        note: { id: 'note', title: 'Note', type: 'text', textAlignment: 'center' },
        notes: { id: 'notes', title: 'Hidden', type: 'text', textAlignment: 'left' },
      },
      fullWidth: true,
    },
    fragments: [
      cell('f-r2', 'Pear', { key: 'k2' }),
      cell('unused', 'Nobody shows me'),
      cell('f-r1', 'Apple'),
      cell('f-r1-note', 'Crisp'),
      cell('f-r2-note', 'Soft'),
    ],
  };
}
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes });

/** The cells' plain texts (a kept value as `=<json>`), row by row. */
function grid(table: EditorNode): string[][] {
  const textOf = (node: EditorNode): string =>
    node.type === 'text' ? (node.text ?? '') : (node.content ?? []).map(textOf).join('');
  return (table.content ?? []).map((row) =>
    (row.content ?? []).map((c) => {
      const only = c.content?.[0];
      return only?.type === 'tableValue' ? `=${JSON.stringify(only.attrs?.value)}` : textOf(c);
    }),
  );
}

/** The position of the start of the text in the cell at `row`, `column` of the first block. */
function cellStart(state: EditorState, row: number, column: number): number {
  const table = state.doc.child(0);
  let pos = 1;
  for (let r = 0; r < row; r++) pos += table.child(r).nodeSize;
  pos += 1;
  for (let c = 0; c < column; c++) pos += table.child(row).child(c).nodeSize;
  return pos + 2;
}

/** An editor state of `document`, the cursor in the cell at `row`, `column` of its first block. */
function stateAt(document: unknown, row: number, column: number): EditorState {
  const state = EditorState.create({ doc: Node.fromJSON(documentSchema(), documentToEditor(document)) });
  return state.apply(state.tr.setSelection(TextSelection.create(state.doc, cellStart(state, row, column))));
}

function run(state: EditorState, command: (s: EditorState, d: (tr: Transaction) => void) => boolean): EditorState {
  let next = state;
  expect(command(state, (tr) => (next = state.apply(tr)))).toBe(true);
  return next;
}

const tableOf = (state: EditorState) => (editorToDocument(state.doc.toJSON()).nodes[0] as Value).data as Value;

describe('document model: tables, cell by cell', () => {
  it('shows the visible columns under their titles and the records in order, each kind as it can be edited', () => {
    const document = doc(productTable());
    const json = expectLossless(document);
    const table = json.content?.[0] as EditorNode;
    expect(table.type).toBe('table');
    expect(grid(table)).toEqual([
      ['Name', 'Price', 'In stock', 'Note'],
      ['Apple', '10', '=true', 'Crisp'],
      ['Pear', '2.5', '=false', 'Soft'],
    ]);
    expect(table.content?.[0]?.content?.every((c) => c.type === 'tableHeader')).toBe(true);
    expect(() => checkDocumentModel(document)).not.toThrow();
  });

  it('keeps what no cell shows: a fragment held twice, a value naming no fragment, no value, an empty fragment', () => {
    const table = productTable() as {
      data: { records: { r1: { values: Value }; r2: { values: Value } } };
      fragments: Value[];
    };
    table.data.records.r1.values.note = 'f-r2-note';
    table.data.records.r2.values.name = 'nowhere';
    delete table.data.records.r2.values.price;
    table.fragments.push({ object: 'fragment', fragment: 'empty', nodes: [] });
    table.data.records.r1.values.name = 'empty';
    const json = expectLossless(doc(table));
    expect(grid(json.content?.[0] as EditorNode)).toEqual([
      ['Name', 'Price', 'In stock', 'Note'],
      ['="empty"', '10', '=true', 'Soft'],
      ['="nowhere"', '=null', '=false', '="f-r2-note"'],
    ]);
  });

  it('stays whole (an atom) when it is not a table the editor can show', () => {
    const hidden = productTable() as { data: { view: Value } };
    hidden.data.view.columns = [];
    const undefinedColumn = productTable() as { data: { view: Value } };
    undefinedColumn.data.view.columns = ['name', 'who'];
    for (const table of [hidden, undefinedColumn]) {
      expect(expectLossless(doc(table)).content?.[0]?.type).toBe('blockAtom');
    }
  });

  it('writes what is typed: text in a fragment, a number as a number, anything else as text', () => {
    let state = stateAt(doc(productTable()), 1, 0);
    state = state.apply(state.tr.insertText('Green '));
    const price = cellStart(state, 2, 1);
    state = state.apply(state.tr.insertText('7', price, price + 3));
    const stock = cellStart(state, 2, 2) - 1;
    // A kept value deleted, then typed over: written as typed.
    state = state.apply(state.tr.replaceWith(stock, stock + 1, state.schema.text('maybe')));
    const data = tableOf(state);
    const table = editorToDocument(state.doc.toJSON()).nodes[0] as { fragments: Value[] };
    expect(table.fragments.find((f) => f.fragment === 'f-r1')?.nodes).toEqual([p('Green Apple')]);
    expect((data.records as Record<string, { values: Value }>).r2?.values.price).toBe(7);
    expect((data.records as Record<string, { values: Value }>).r2?.values.stock).toBe('maybe');
    // Order of fragments, records' order indexes, widths and the hidden column: unchanged.
    expect(table.fragments.map((f) => f.fragment)).toEqual(['f-r2', 'unused', 'f-r1', 'f-r1-note', 'f-r2-note']);
  });

  it('adds a row (new record after the last, new fragments) and a column (new text column), deletes a column', () => {
    let state = stateAt(doc(productTable()), 2, 0);
    state = run(state, addRowAfter);
    state = run(state, addColumnAfter);
    // Saved once (without the editor's plugin, ids are made when saving: table-ids.ts).
    const saved = editorToDocument(state.doc.toJSON());
    let data = (saved.nodes[0] as Value).data as Value;
    const records = data.records as Record<string, { orderIndex: string; values: Value }>;
    // The records keep their order (r2 came first); the new one, a random id, comes last.
    const [, , added] = Object.keys(records);
    expect(Object.keys(records)).toEqual(['r2', 'r1', added]);
    expect(added).toMatch(/^[A-Za-z0-9]{20}$/);
    const row = records[added as string];
    expect(records.r1?.orderIndex).toBe('a0');
    expect(records.r2?.orderIndex).toBe('a1');
    expect(String(row?.orderIndex) > 'a1').toBe(true);
    // A new text cell gets a fragment; a new number or checkbox cell has no value yet.
    const columns = (data.view as Value).columns as string[];
    const column = columns[1] as string;
    expect(column).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(columns).toEqual(['name', column, 'price', 'stock', 'note']);
    expect(Object.keys(row?.values ?? {}).sort()).toEqual([column, 'name', 'note'].sort());
    expect((data.definition as Value)[column]).toEqual({ id: column, type: 'text', textAlignment: 'left', title: '' });
    expect(records.r2?.values.notes).toBe('x');

    state = stateAt(saved, 1, 4);
    state = run(state, deleteColumn);
    state = run(stateAt(editorToDocument(state.doc.toJSON()), 1, 0), deleteRow);
    data = tableOf(state);
    expect((data.view as Value).columns).toEqual(['name', column, 'price', 'stock']);
    expect((data.view as Value).columnWidths).toEqual({ name: 30, gone: 5 });
    expect(Object.keys(data.records as Value)).toEqual(['r2', added]);
    expect(Object.keys(data.definition as Value).sort()).toEqual([column, 'name', 'notes', 'price', 'stock'].sort());
    const table = editorToDocument(state.doc.toJSON()).nodes[0] as { fragments: Value[] };
    // The deleted row's and column's fragments are gone; the one no visible cell held stays.
    expect(table.fragments.map((f) => f.fragment)).toEqual([
      'f-r2',
      'unused',
      `r2-${column}`,
      `${added}-name`,
      `${added}-${column}`,
    ]);
    expect(() => checkDocumentModel(editorToDocument(state.doc.toJSON()))).not.toThrow();
  });

  it('gives a row or a column made in the editor its random id at once, and a copied one a fresh id', () => {
    const { tableIdsPlugin } = tablePlugins;
    let state = EditorState.create({
      doc: Node.fromJSON(documentSchema(), documentToEditor(doc(productTable()))),
      plugins: [tableIdsPlugin],
    });
    state = state.apply(state.tr.setSelection(TextSelection.create(state.doc, cellStart(state, 2, 0))));
    state = run(state, addRowAfter);
    state = run(state, addColumnAfter);
    const table = state.doc.child(0);
    const ids = Array.from({ length: table.childCount }, (_, r) => table.child(r).attrs.id);
    expect(ids.slice(0, 3)).toEqual([null, 'r1', 'r2']);
    expect(ids[3]).toMatch(/^[A-Za-z0-9]{20}$/);
    const header = table.child(0);
    const columns = Array.from({ length: header.childCount }, (_, c) => header.child(c).attrs.column);
    expect(columns[1]).toMatch(/^[A-Za-z0-9]{20}$/);
    // Saving twice gives the same ids: they are the editor's, not the save's.
    expect(Object.keys(tableOf(state).records as Value)).toEqual(Object.keys(tableOf(state).records as Value));
    expect(Object.keys(tableOf(state).records as Value)).toContain(ids[3]);

    // A copy of row r1 pasted after it: the copy gets an id of its own.
    const r1 = table.child(1);
    const after = 1 + table.child(0).nodeSize + r1.nodeSize;
    state = state.apply(state.tr.insert(after, r1.copy(r1.content)));
    const copied = state.doc.child(0).child(2).attrs.id;
    expect(copied).not.toBe('r1');
    expect(copied).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('draws merged cells (cellMerges) spanning their range, and keeps the merges and covered cells as read', () => {
    const table = productTable() as { data: Value };
    table.data.cellMerges = [
      { anchor: { record: 'r1', column: 'name' }, rowSpan: 2, colSpan: 1 },
      { anchor: { record: 'r1', column: 'price' }, rowSpan: 1, colSpan: 2 },
      // Overlapping the first, out of the table, of one cell, naming no record: not drawn.
      { anchor: { record: 'r2', column: 'name' }, rowSpan: 1, colSpan: 2 },
      { anchor: { record: 'r2', column: 'stock' }, rowSpan: 1, colSpan: 3 },
      { anchor: { record: 'r2', column: 'note' }, rowSpan: 1, colSpan: 1 },
      { anchor: { record: 'gone', column: 'note' }, rowSpan: 2, colSpan: 1 },
    ];
    const document = doc(table);
    expectLossless(document);
    const state = EditorState.create({
      doc: Node.fromJSON(documentSchema(), documentToEditor(document)),
      plugins: [tableMergesPlugin],
    });
    // Body rows in order (r1 then r2), visible columns.
    expect(tableMerges(state.doc.child(0))).toEqual([
      { row: 0, column: 0, rowSpan: 2, colSpan: 1 },
      { row: 0, column: 1, rowSpan: 1, colSpan: 2 },
    ]);
    const drawn = (tableMergesPlugin.getState(state)?.find() ?? []).map((d) => {
      const $cell = state.doc.resolve(d.from);
      const attrs = (d as unknown as { type: { attrs: Value } }).type.attrs;
      return [$cell.index(1), $cell.index(2), attrs['data-merged'], attrs.colspan ?? '', attrs.rowspan ?? ''];
    });
    expect(drawn).toEqual([
      [1, 0, 'anchor', '1', '2'],
      [1, 1, 'anchor', '2', '1'],
      [1, 2, 'covered', '', ''],
      [2, 0, 'covered', '', ''],
    ]);
    // Typing in a cell redraws that table; the merges stay.
    const next = state.apply(state.tr.insertText('x', cellStart(state, 1, 3)));
    expect(tableMergesPlugin.getState(next)?.find().length).toBe(4);
  });

  it('writes `fragments` (the format requires it) for a table made in the editor and left with no text cell', () => {
    // A table the editor made itself (pasted: no fragments read), then its only body row deleted.
    const para = (value: string) => ({ type: 'paragraph', content: [{ type: 'text', text: value }] });
    const made = {
      type: 'doc',
      content: [
        {
          type: 'table',
          content: [
            { type: 'tableRow', content: [{ type: 'tableHeader', content: [para('Fruit')] }] },
            { type: 'tableRow', content: [{ type: 'tableCell', content: [para('Apple')] }] },
          ],
        },
      ],
    };
    let state = EditorState.create({ doc: Node.fromJSON(documentSchema(), made) });
    state = state.apply(state.tr.setSelection(TextSelection.create(state.doc, cellStart(state, 1, 0))));
    state = run(state, deleteRow);
    const written = editorToDocument(state.doc.toJSON());
    const table = written.nodes[0] as Value;
    expect(table.fragments).toEqual([]);
    expect(Object.keys(table.data as Value).sort()).toEqual(['definition', 'records', 'view']);
    expect(() => checkDocumentModel(written)).not.toThrow();
    // Read again, it is written the same.
    expect(editorToDocument(documentToEditor(written))).toEqual(written);
  });

  it('edits the tables the Markdown importer writes, and keeps them exactly', () => {
    const document = markdownToDocument('| a | b |\n| - | -: |\n| 1 | **2** |\n| 3 | 4 |\n');
    const json = expectLossless(document);
    expect(grid(json.content?.[0] as EditorNode)).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ]);
  });
});
