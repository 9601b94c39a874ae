/**
 * A table's merged cells (`data.cellMerges`: an anchor record and column, a row and a column span),
 * resolved as the format says: against the rows in `orderIndex` order and the visible columns. A
 * merge out of the table, of one cell, or overlapping an earlier one is not drawn. The editor
 * (table-merges.ts), the published site and the app's reader draw the same merges from this.
 */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface CellMerge {
  /** Body row (0: the first record) and visible column of the anchor. */
  row: number;
  column: number;
  rowSpan: number;
  colSpan: number;
}

const SPAN_LIMIT = 50;
const span = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= SPAN_LIMIT ? value : 0;

/**
 * The merges that can be drawn, positionally. `rows` are the body rows' record ids in order,
 * `columns` the visible columns' ids in order, `widths` each body row's number of cells (the
 * editor's rows can be uneven mid-edit; a merge over a short row is not drawn).
 */
export function resolveCellMerges(
  merges: unknown,
  rows: readonly unknown[],
  columns: readonly unknown[],
  widths: readonly number[] = rows.map(() => columns.length),
): CellMerge[] {
  if (!Array.isArray(merges) || merges.length === 0) return [];
  const width = Math.max(0, columns.length, ...widths);
  const taken = new Set<string>();
  const out: CellMerge[] = [];
  for (const merge of merges) {
    if (!isObject(merge) || !isObject(merge.anchor)) continue;
    const row = rows.indexOf(merge.anchor.record);
    const column = columns.indexOf(merge.anchor.column);
    const rowSpan = span(merge.rowSpan);
    const colSpan = span(merge.colSpan);
    if (row < 0 || column < 0 || rowSpan * colSpan < 2) continue;
    if (row + rowSpan > rows.length || column + colSpan > width) continue;
    const cells: string[] = [];
    for (let r = row; r < row + rowSpan; r++) for (let c = column; c < column + colSpan; c++) cells.push(`${r}:${c}`);
    // Rows of uneven width (mid-edit) or an overlap: not drawn.
    if (cells.some((cell) => taken.has(cell))) continue;
    if (widths.slice(row, row + rowSpan).some((w) => w < column + colSpan)) continue;
    for (const cell of cells) taken.add(cell);
    out.push({ row, column, rowSpan, colSpan });
  }
  return out;
}

/** How each body cell is drawn under `merges`: spanning (an anchor), not at all (covered), or as is. */
export function cellSpans(merges: readonly CellMerge[]): (row: number, column: number) => CellMerge | 'covered' | null {
  const cells = new Map<string, CellMerge | 'covered'>();
  for (const merge of merges) {
    for (let r = merge.row; r < merge.row + merge.rowSpan; r++) {
      for (let c = merge.column; c < merge.column + merge.colSpan; c++) cells.set(`${r}:${c}`, 'covered');
    }
    cells.set(`${merge.row}:${merge.column}`, merge);
  }
  return (row, column) => cells.get(`${row}:${column}`) ?? null;
}

/**
 * How a reader (the published site, the app) draws each body cell of a table: its rows as
 * `recordsInOrder` gives them, its visible columns, and its `data.cellMerges`.
 */
export function readerCellSpans(
  merges: unknown,
  rows: ReadonlyArray<readonly [string, unknown]>,
  columns: readonly unknown[],
): (row: number, column: number) => CellMerge | 'covered' | null {
  return cellSpans(
    resolveCellMerges(
      merges,
      rows.map(([id]) => id),
      columns,
    ),
  );
}
