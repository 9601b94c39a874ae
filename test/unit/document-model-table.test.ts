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
    let data = tableOf(state);
    const records = data.records as Record<string, { orderIndex: string; values: Value }>;
    expect(Object.keys(records)).toEqual(['r1', 'r2', 'row3']);
    expect(records.r1?.orderIndex).toBe('a0');
    expect(records.r2?.orderIndex).toBe('a1');
    expect(String(records.row3?.orderIndex) > 'a1').toBe(true);
    // A new text cell gets a fragment; a new number or checkbox cell has no value yet.
    expect(Object.keys(records.row3?.values ?? {}).sort()).toEqual(['column2', 'name', 'note']);
    expect((data.view as Value).columns).toEqual(['name', 'column2', 'price', 'stock', 'note']);
    expect((data.definition as Value).column2).toEqual({
      id: 'column2',
      type: 'text',
      textAlignment: 'left',
      title: '',
    });
    expect(records.r2?.values.notes).toBe('x');

    state = stateAt(editorToDocument(state.doc.toJSON()), 1, 4);
    state = run(state, deleteColumn);
    state = run(stateAt(editorToDocument(state.doc.toJSON()), 1, 0), deleteRow);
    data = tableOf(state);
    expect((data.view as Value).columns).toEqual(['name', 'column2', 'price', 'stock']);
    expect((data.view as Value).columnWidths).toEqual({ name: 30, gone: 5 });
    expect(Object.keys(data.records as Value)).toEqual(['r2', 'row3']);
    expect(Object.keys(data.definition as Value).sort()).toEqual(['column2', 'name', 'notes', 'price', 'stock']);
    const table = editorToDocument(state.doc.toJSON()).nodes[0] as { fragments: Value[] };
    // The deleted row's and column's fragments are gone; the one no visible cell held stays.
    expect(table.fragments.map((f) => f.fragment)).toEqual([
      'f-r2',
      'unused',
      'r2-column2',
      'row3-name',
      'row3-column2',
    ]);
    expect(() => checkDocumentModel(editorToDocument(state.doc.toJSON()))).not.toThrow();
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
