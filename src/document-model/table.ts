/**
 * The table block (official `DocumentBlockTable`) both ways, cell by cell. The format's table is
 * data: `data.definition` (columns by id), `data.view.columns` (the visible ones, in order),
 * `data.records` (rows by id, ordered by `orderIndex`, each cell in `values` by column id) and the
 * text cells' contents as `fragments` named by their values. The editor shows the visible columns
 * (a header row of their titles) and one row per record in order:
 *
 * - a text cell whose value names a fragment holds that fragment's blocks (the fragment's other
 *   properties in the cell's `fragment`); a number cell holds the number as text;
 * - any other value (files, users, a checkbox, a rating, a select, content refs, images; a value
 *   naming no fragment, or one another cell already holds; no value) is one `tableValue` holding it;
 * - the table keeps the rest of `data` (the view, hidden columns' definitions, `cellMerges`,
 *   anything unknown); a row its record but the visible cells' values (`orderIndex`, hidden
 *   columns' values); a header cell its column's id and definition but the title (its text); the
 *   table's `layout` the order of `fragments`, each held by a cell named by its id, every other
 *   fragment (no visible cell's) kept whole.
 *
 * Writing back gives the same table, byte for byte, when nothing was edited (the keys' orders that
 * writing would not give by itself are kept in `order` attributes). Edits: a new row or column gets
 * a new random id (ids.ts; in the editor, as soon as it is made: table-ids.ts), a new text cell a
 * new fragment, the records keep their `orderIndex` while the rows are in that order (a new row
 * gets one after its predecessor's), else all are numbered again. A table of
 * another shape (no visible column, a column without a definition…) stays an atom (to-editor.ts).
 */
import type { NodeType, Schema } from '@tiptap/pm/model';
import { elementFromAttrs, formatAttrs, inKeyOrder, isObject, keyOrder, type Value } from './attrs.js';
import { newTableId } from './ids.js';
import { compareOrderIndex, recordsInOrder } from './order-index.js';
import { TABLE } from './registry.js';
import type { EditorNode } from './types.js';

/** The editor nodes of a fragment's blocks in a node of `type`, or null (see to-editor.ts). */
export type BlocksToEditor = (type: NodeType, nodes: unknown) => EditorNode[] | null;
/** The format's blocks of editor nodes (see to-document.ts). */
export type BlocksToDocument = (nodes: EditorNode[], path: string) => Value[];

/** A number as written in a number cell (what `String(number)` gives, and what people type). */
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/** A node of the schema with every attribute, as ProseMirror's JSON has it. */
function node(schema: Schema, type: string, attrs: Value, content?: EditorNode[]): EditorNode {
  const spec = (schema.nodes[type] as NodeType).spec.attrs ?? {};
  const all = Object.fromEntries(Object.entries(spec).map(([name, attr]) => [name, attr.default ?? null]));
  return { type, attrs: { ...all, ...attrs }, ...(content && content.length > 0 ? { content } : {}) };
}

const paragraph = (schema: Schema, text: string) =>
  node(schema, 'paragraph', {}, text === '' ? [] : [{ type: 'text', text }]);

/** The rows of records, in the order the format shows them (sort is stable: ties keep the key order). */
function orderedRecords(records: Value): Array<[string, Value]> | null {
  const entries = Object.entries(records);
  if (!entries.every(([, r]) => isObject(r) && typeof r.orderIndex === 'string' && isObject(r.values))) return null;
  return recordsInOrder(records as Record<string, Value>);
}

/** The editor's table of a format table, or null when it is not a table of that shape. */
export function tableToEditor(schema: Schema, table: Value, blocks: BlocksToEditor): EditorNode | null {
  const { data, fragments } = table;
  if (!isObject(data) || !isObject(data.view) || !isObject(data.records) || !isObject(data.definition)) return null;
  const definition = data.definition;
  const columns = data.view.columns;
  if (!Array.isArray(columns) || columns.length === 0 || new Set(columns).size !== columns.length) return null;
  if (!columns.every((id) => typeof id === 'string' && isObject(definition[id]))) return null;
  if (!columns.every((id) => typeof (definition[id] as Value).title === 'string')) return null;
  const records = orderedRecords(data.records);
  if (!records || (fragments !== undefined && !Array.isArray(fragments))) return null;

  const byId = new Map<string, Value>();
  for (const fragment of (fragments ?? []) as unknown[]) {
    if (isObject(fragment) && typeof fragment.fragment === 'string' && !byId.has(fragment.fragment)) {
      byId.set(fragment.fragment, fragment);
    }
  }
  const claimed = new Set<Value>();
  const cellType = schema.nodes[TABLE.cell] as NodeType;
  const cell = (values: Value, column: string): EditorNode => {
    const kind = (definition[column] as Value).type;
    const value = values[column];
    const fragment = typeof value === 'string' ? byId.get(value) : undefined;
    if (kind === 'text' && fragment && !claimed.has(fragment)) {
      const { nodes, ...props } = fragment;
      const content = blocks(cellType, nodes);
      if (content) {
        claimed.add(fragment);
        const order = keyOrder(fragment, ['object', ...Object.keys(props).filter((k) => k !== 'object'), 'nodes']);
        return node(schema, TABLE.cell, { fragment: props, order }, content);
      }
    }
    if (kind === 'number' && typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)) {
      return node(schema, TABLE.cell, {}, [paragraph(schema, String(value))]);
    }
    const held = Object.hasOwn(values, column) ? { value, absent: false } : { value: null, absent: true };
    return node(schema, TABLE.cell, {}, [node(schema, TABLE.value, held)]);
  };

  const header = node(
    schema,
    TABLE.row,
    {},
    columns.map((id) => {
      const { title, ...rest } = definition[id] as Value;
      const order = keyOrder(definition[id] as Value, [...Object.keys(rest), 'title']);
      return node(schema, TABLE.header, { column: id, definition: rest, order }, [paragraph(schema, title as string)]);
    }),
  );
  const rows = records.map(([id, record]) => {
    const { values } = record as Value & { values: Value };
    const hidden = Object.fromEntries(Object.entries(values).filter(([column]) => !columns.includes(column)));
    const cells = columns.map((column) => cell(values, column));
    // Written back: the hidden columns' values, then the visible cells' (tableToDocument).
    const order = keyOrder(values, [...Object.keys(hidden), ...columns.filter((c) => Object.hasOwn(values, c))]);
    // The record's other properties keep their places (`values` replaced where it is).
    return node(schema, TABLE.row, { id, record: { ...record, values: hidden }, order }, cells);
  });

  const { records: _records, definition: _definition, ...rest } = data;
  const hiddenDefinitions = Object.fromEntries(Object.entries(definition).filter(([id]) => !columns.includes(id)));
  const layout = Array.isArray(fragments)
    ? fragments.map((fragment) => (claimed.has(fragment) ? (fragment as Value).fragment : fragment))
    : null;
  const { key, extra, order: tableOrder } = formatAttrs(table, ['fragments']);
  // The orders tableToDocument would not give by itself (attrs.ts, keyOrder).
  const orders = {
    table: tableOrder,
    data: keyOrder(data, [...Object.keys(rest), 'definition', 'records']),
    definition: keyOrder(definition, [...Object.keys(hiddenDefinitions), ...columns]),
    records: keyOrder(
      data.records,
      records.map(([id]) => id),
    ),
  };
  const order = Object.values(orders).some((o) => o !== null) ? orders : null;
  const attrs = { key, extra, data: { ...rest, definition: hiddenDefinitions }, layout, order };
  return node(schema, TABLE.name, attrs, [header, ...rows]);
}

/** The text of editor nodes, textblocks on lines of their own. */
function textOf(nodes: EditorNode[] | undefined): string {
  return (nodes ?? [])
    .map((child) => (child.type === 'text' ? (child.text ?? '') : textOf(child.content)))
    .join(nodes?.some((child) => child.type !== 'text') ? '\n' : '');
}

/** An id made from `base` that `taken` does not hold yet (then it does). */
function fresh(taken: Set<string>, base: string): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

interface Column {
  id: string;
  definition: Value;
}

/** The columns of the header row (or, without one, new text columns), their ids unique. */
function columnsOf(header: EditorNode | null, width: number, taken: Set<string>): Column[] {
  return Array.from({ length: width }, (_, i) => {
    const cell = header?.content?.[i];
    const read = cell?.attrs?.column;
    const id = typeof read === 'string' && !taken.has(read) ? read : fresh(taken, newTableId());
    taken.add(id);
    const kept = cell?.attrs?.definition;
    // A copied column keeps its kind under its new id.
    const rest = isObject(kept)
      ? { ...kept, ...(id !== read && kept.id === read ? { id } : {}) }
      : { id, type: 'text', textAlignment: 'left' };
    return { id, definition: inKeyOrder({ ...rest, title: textOf(cell?.content) }, cell?.attrs?.order) };
  });
}

type Written = { value?: unknown; fragment?: Value; nodes?: EditorNode[]; order?: unknown };

/** What a cell writes: its value (none when absent), or for a text cell the fragment it holds. */
function writeCell(cell: EditorNode | undefined, kind: unknown): Written {
  const content = cell?.content ?? [];
  const only = content.length === 1 ? content[0] : undefined;
  if (only?.type === TABLE.value) return only.attrs?.absent ? {} : { value: only.attrs?.value ?? null };
  if (kind === 'text') {
    const props = cell?.attrs?.fragment;
    return { fragment: isObject(props) ? props : {}, nodes: content, order: cell?.attrs?.order };
  }
  const text = textOf(content).trim();
  if (text === '') return {};
  return { value: kind === 'number' && NUMBER.test(text) ? Number(text) : text };
}

/**
 * The records' `orderIndex`es in row order: as read while in order (a new row's after its
 * predecessor's), else all numbered again.
 */
function orderIndexes(read: unknown[]): string[] {
  const out: string[] = [];
  for (const index of read) {
    const previous = out[out.length - 1];
    if (typeof index === 'string') out.push(index);
    else if (previous !== undefined) out.push(`${previous}V`);
    else break;
  }
  const ordered =
    out.length === read.length &&
    out.every((index, i) => i === 0 || compareOrderIndex(index, out[i - 1] as string) >= 0);
  return ordered ? out : read.map((_, i) => String(i).padStart(6, '0'));
}

/** The format's table of the editor's table node. */
export function tableToDocument(table: EditorNode, path: string, blocks: BlocksToDocument): Value {
  const attrs = table.attrs ?? {};
  const stored = isObject(attrs.data) ? attrs.data : {};
  const hiddenDefinitions = isObject(stored.definition) ? stored.definition : {};
  const rows = table.content ?? [];
  const first = rows[0];
  const header = first?.content?.length && first.content.every((c) => c.type === TABLE.header) ? first : null;
  const body = header ? rows.slice(1) : rows;
  const width = Math.max(0, ...rows.map((row) => row.content?.length ?? 0));
  const rowRecords = body.map((row) => (isObject(row.attrs?.record) ? row.attrs.record : null));

  const takenColumns = new Set(Object.keys(hiddenDefinitions));
  for (const record of rowRecords) for (const id of Object.keys(record?.values ?? {})) takenColumns.add(id);
  const columns = columnsOf(header, width, takenColumns);

  // Cells first, then ids for new fragments: one a cell holds keeps its id, the first time.
  const takenRows = new Set<string>();
  const rowIds = body.map((row) => (typeof row.attrs?.id === 'string' ? row.attrs.id : null));
  for (const id of rowIds) if (id) takenRows.add(id);
  const seenRows = new Set<string>();
  const ids = rowIds.map((id) => {
    if (id && !seenRows.has(id)) {
      seenRows.add(id);
      return id;
    }
    return fresh(takenRows, newTableId());
  });
  const written = body.map((row) => columns.map((column, c) => writeCell(row.content?.[c], column.definition.type)));
  const layout = Array.isArray(attrs.layout) ? attrs.layout : null;
  // New fragments' ids avoid every id read: of fragments kept whole and of those cells hold.
  const takenFragments = new Set<string>();
  for (const entry of layout ?? []) {
    if (isObject(entry) && typeof entry.fragment === 'string') takenFragments.add(entry.fragment);
  }
  for (const cell of written.flat()) {
    if (typeof cell.fragment?.fragment === 'string') takenFragments.add(cell.fragment.fragment);
  }
  const held = new Map<string, Value>();
  written.forEach((cells, r) => {
    cells.forEach((cell, c) => {
      if (!cell.fragment) return;
      const read = cell.fragment.fragment;
      const id =
        typeof read === 'string' && !held.has(read) ? read : fresh(takenFragments, `${ids[r]}-${columns[c]?.id}`);
      takenFragments.add(id);
      // A copied fragment (a new id) does not take its original's key.
      const { key, ...others } = cell.fragment;
      const props = id === read ? cell.fragment : others;
      const nodes = blocks(cell.nodes ?? [], `${path}/fragments/${held.size}/nodes`);
      held.set(id, inKeyOrder({ object: 'fragment', ...props, fragment: id, nodes }, cell.order));
      cell.value = id;
    });
  });

  const indexes = orderIndexes(rowRecords.map((record) => record?.orderIndex));
  const records = Object.fromEntries(
    body.map((row, r) => {
      // The record as read, `orderIndex` and `values` written where they were.
      const record = rowRecords[r] ?? {};
      const cells = Object.fromEntries(
        columns.flatMap((column, c) => {
          const cell = written[r]?.[c];
          return cell && 'value' in cell ? [[column.id, cell.value]] : [];
        }),
      );
      const values = inKeyOrder({ ...(isObject(record.values) ? record.values : {}), ...cells }, row.attrs?.order);
      return [ids[r], { ...record, orderIndex: indexes[r], values }];
    }),
  );

  const fragments: Value[] = [];
  const emitted = new Set<string>();
  for (const entry of layout ?? []) {
    if (typeof entry !== 'string') fragments.push(entry as Value);
    else if (held.has(entry) && !emitted.has(entry)) {
      fragments.push(held.get(entry) as Value);
      emitted.add(entry);
    }
  }
  for (const [id, fragment] of held) if (!emitted.has(id)) fragments.push(fragment);

  const visible = columns.map((column) => column.id);
  const view = isObject(stored.view) ? stored.view : { type: 'grid', hideHeader: header === null };
  const readColumns = Array.isArray(view.columns) ? view.columns : [];
  // A removed column's width goes with it; other widths (of hidden columns…) stay.
  const widths = isObject(view.columnWidths)
    ? {
        columnWidths: Object.fromEntries(
          Object.entries(view.columnWidths).filter(([id]) => visible.includes(id) || !readColumns.includes(id)),
        ),
      }
    : {};
  const orders = isObject(attrs.order) ? attrs.order : {};
  const definition = inKeyOrder(
    { ...hiddenDefinitions, ...Object.fromEntries(columns.map((column) => [column.id, column.definition])) },
    orders.definition,
  );
  const data = inKeyOrder(
    {
      ...stored,
      view: { ...view, columns: visible, ...widths },
      definition,
      records: inKeyOrder(records, orders.records),
    },
    orders.data,
  );
  const extra = isObject(attrs.extra) ? attrs.extra : { isVoid: true };
  // Always written, empty or not: the format requires a table's `fragments` (one made in the editor
  // and left without a text cell has none to write).
  return elementFromAttrs('block', TABLE.type, { key: attrs.key, extra, data, order: orders.table }, { fragments });
}
