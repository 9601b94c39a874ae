/**
 * Moving blocks with the keyboard (the drag handle's counterpart): Alt-Shift-ArrowUp/Down swaps the
 * block holding the selection with its previous or next sibling. The block moved is the innermost
 * one that has siblings (a paragraph alone in a list item moves the item), so a swap never changes
 * what a container holds, only its order: the schema always allows it.
 */
import { Extension } from '@tiptap/core';
import { Fragment } from '@tiptap/pm/model';
import { type EditorState, NodeSelection, TextSelection, type Transaction } from '@tiptap/pm/state';

/** Moves the current block one place up (-1) or down (+1); false when it is already at that end. */
export function moveBlock(state: EditorState, direction: -1 | 1, dispatch?: (tr: Transaction) => void): boolean {
  const { selection } = state;
  const $from = selection.$from;
  // A selected void block (an image, a divider) is the block itself; else start from the textblock.
  let depth = selection instanceof NodeSelection ? $from.depth + 1 : $from.depth;
  const nodeAt = (d: number) => (d === $from.depth + 1 ? (selection as NodeSelection).node : $from.node(d));
  while (depth > 1 && $from.node(depth - 1).childCount === 1) depth -= 1;
  if (depth < 1) return false;
  const parent = $from.node(depth - 1);
  const index = $from.index(depth - 1);
  const sibling = parent.maybeChild(index + direction);
  if (!sibling) return false;
  if (!dispatch) return true;
  const node = nodeAt(depth);
  const start = depth === $from.depth + 1 ? $from.pos : $from.before(depth);
  const end = start + node.nodeSize;
  const tr = state.tr;
  const shift = direction === 1 ? sibling.nodeSize : -sibling.nodeSize;
  if (direction === 1) tr.replaceWith(start, end + sibling.nodeSize, Fragment.from([sibling, node]));
  else tr.replaceWith(start - sibling.nodeSize, end, Fragment.from([node, sibling]));
  tr.setSelection(
    selection instanceof NodeSelection
      ? NodeSelection.create(tr.doc, selection.from + shift)
      : TextSelection.create(tr.doc, selection.from + shift, selection.to + shift),
  );
  dispatch(tr.scrollIntoView());
  return true;
}

export const KeyboardMove = Extension.create({
  name: 'keyboardMove',
  addKeyboardShortcuts() {
    const run = (direction: -1 | 1) => () => moveBlock(this.editor.state, direction, this.editor.view.dispatch);
    return { 'Alt-Shift-ArrowUp': run(-1), 'Alt-Shift-ArrowDown': run(1) };
  },
});
