/**
 * Where transactions changed a document: what the editor's plugins that tidy up after an edit (a
 * table's ids, its merged cells, an emptied `images` block) look at, instead of the whole document
 * on every keystroke.
 */
import type { Transaction } from '@tiptap/pm/state';

/** The ranges of the final document that `trs` changed. */
export function changedRanges(trs: readonly Transaction[]): Array<[number, number]> {
  let ranges: Array<[number, number]> = [];
  for (const tr of trs) {
    ranges = ranges.map(([from, to]) => [tr.mapping.map(from, -1), tr.mapping.map(to, 1)]);
    tr.mapping.maps.forEach((map, i) => {
      const rest = tr.mapping.slice(i + 1);
      map.forEach((_oldFrom, _oldTo, from, to) => {
        ranges.push([rest.map(from, -1), rest.map(to, 1)]);
      });
    });
  }
  return ranges;
}
