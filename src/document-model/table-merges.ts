/**
 * Shows a table's merged cells (`data.cellMerges`, resolved by cell-merges.ts as the published table
 * resolves them): the anchor cell spans the range, the cells it covers are not drawn. Drawn only
 * (decorations): the document keeps every cell and the merges as read, so the table is written back
 * unchanged (table.ts keeps `cellMerges` in the table's `data`).
 */
import type { Node } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { isObject } from './attrs.js';
import { type CellMerge, resolveCellMerges } from './cell-merges.js';
import { changedRanges } from './changed-ranges.js';
import { TABLE } from './registry.js';

/** The merges of an editor table node that can be drawn, positionally. */
export function tableMerges(table: Node): CellMerge[] {
  const merges = isObject(table.attrs.data) ? table.attrs.data.cellMerges : undefined;
  if (!Array.isArray(merges) || merges.length === 0) return [];
  const rows: Node[] = [];
  table.forEach((row) => {
    rows.push(row);
  });
  const header = rows[0]?.firstChild?.type.name === TABLE.header ? rows[0] : null;
  const body = header ? rows.slice(1) : rows;
  const columns: unknown[] = [];
  header?.forEach((cell) => {
    columns.push(cell.attrs.column);
  });
  return resolveCellMerges(
    merges,
    body.map((row) => row.attrs.id),
    columns,
    body.map((row) => row.childCount),
  );
}

/** The decorations of the merges of the table at `pos`. */
function tableDecorations(table: Node, pos: number): Decoration[] {
  const merges = tableMerges(table);
  if (merges.length === 0) return [];
  // Each cell's [from, to] in the document, row by row (the header row first, when there is one).
  const cells: Array<Array<[number, number]>> = [];
  table.forEach((row, rowOffset) => {
    const inRow: Array<[number, number]> = [];
    row.forEach((cell, cellOffset) => {
      const from = pos + 1 + rowOffset + 1 + cellOffset;
      inRow.push([from, from + cell.nodeSize]);
    });
    cells.push(inRow);
  });
  const offset = table.firstChild?.firstChild?.type.name === TABLE.header ? 1 : 0;
  const out: Decoration[] = [];
  for (const merge of merges) {
    for (let r = merge.row; r < merge.row + merge.rowSpan; r++) {
      for (let c = merge.column; c < merge.column + merge.colSpan; c++) {
        const [from, to] = (cells[r + offset] as Array<[number, number]>)[c] as [number, number];
        const anchor = r === merge.row && c === merge.column;
        out.push(
          Decoration.node(
            from,
            to,
            anchor
              ? { colspan: String(merge.colSpan), rowspan: String(merge.rowSpan), 'data-merged': 'anchor' }
              : { 'data-merged': 'covered', style: 'display: none' },
          ),
        );
      }
    }
  }
  return out;
}

function decorate(doc: Node, from = 0, to = doc.content.size): Decoration[] {
  const out: Decoration[] = [];
  doc.nodesBetween(from, to, (node, pos) => {
    if (node.type.name === TABLE.name) {
      out.push(...tableDecorations(node, pos));
      return false;
    }
    return !node.isTextblock;
  });
  return out;
}

const key = new PluginKey<DecorationSet>('tableMerges');

export const tableMergesPlugin = new Plugin<DecorationSet>({
  key,
  state: {
    init: (_config, state) => DecorationSet.create(state.doc, decorate(state.doc)),
    apply(tr, set, _old, state) {
      if (!tr.docChanged) return set;
      // Only the tables an edit touched are drawn again; the others' decorations move along.
      let next = set.map(tr.mapping, state.doc);
      for (const [from, to] of changedRanges([tr])) {
        state.doc.nodesBetween(Math.max(0, from), Math.min(to, state.doc.content.size), (node, pos) => {
          if (node.type.name !== TABLE.name) return !node.isTextblock;
          next = next.remove(next.find(pos, pos + node.nodeSize));
          next = next.add(state.doc, tableDecorations(node, pos));
          return false;
        });
      }
      return next;
    },
  },
  props: { decorations: (state) => key.getState(state) },
});
