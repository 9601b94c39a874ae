/**
 * Gives a table's new rows (a record) and new header cells (a column) their random ids as soon as
 * the editor makes them (prosemirror-tables' commands create them without), and a fresh one to a
 * copy of another row or column of the same table (a pasted row would otherwise share its record).
 * Ids made when saving would differ from one save to the next; these stay with the row.
 */
import type { Node } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { changedRanges } from './changed-ranges.js';
import { newTableId } from './ids.js';
import { TABLE } from './registry.js';

const isHeaderRow = (row: Node) => row.childCount > 0 && row.firstChild?.type.name === TABLE.header;

/** [position, attribute, id] of each row or header cell of `table` (at `pos`) lacking an id of its own. */
function missingIds(table: Node, pos: number): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  const rows = new Set<string>();
  const columns = new Set<string>();
  table.forEach((row, rowOffset) => {
    const rowPos = pos + 1 + rowOffset;
    if (isHeaderRow(row)) {
      row.forEach((cell, cellOffset) => {
        const column = cell.attrs.column;
        if (cell.type.name !== TABLE.header) return;
        if (typeof column === 'string' && !columns.has(column)) columns.add(column);
        else out.push([rowPos + 1 + cellOffset, 'column']);
      });
      return;
    }
    const id = row.attrs.id;
    if (typeof id === 'string' && !rows.has(id)) rows.add(id);
    else out.push([rowPos, 'id']);
  });
  return out;
}

export const tableIdsPlugin = new Plugin({
  key: new PluginKey('tableIds'),
  appendTransaction(trs, _old, state) {
    if (!trs.some((tr) => tr.docChanged)) return null;
    const tables = new Map<number, Node>();
    for (const [from, to] of changedRanges(trs)) {
      state.doc.nodesBetween(Math.max(0, from), Math.min(to, state.doc.content.size), (node, pos) => {
        if (node.type.name !== TABLE.name) return true;
        tables.set(pos, node);
        return false;
      });
    }
    const tr = state.tr;
    for (const [pos, table] of tables) {
      for (const [at, name] of missingIds(table, pos)) tr.setNodeAttribute(at, name, newTableId());
    }
    return tr.steps.length > 0 ? tr.setMeta('addToHistory', false) : null;
  },
});
