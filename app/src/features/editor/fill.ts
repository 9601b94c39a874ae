/**
 * A long page opens with its first screenful of blocks; the rest is appended after the editor is
 * mounted. TipTap builds ProseMirror's DOM of the whole document three times while it starts (the
 * view's constructor, then the plugins' node views, then the React content's `createNodeViews`: each
 * new set of node views redraws every block), a 5,000-word page's ~200 ms of work, of which only the
 * last build counts. The start now builds a screenful, and the rest is built once.
 *
 * The rest goes in transactions of their own: kept out of the undo history, and not an edit (no
 * `update` event, so not unsaved; TipTap's `preventUpdate`). A save reads {@link wholeDoc}, which
 * appends what is left first: a half-built document is never saved. The person may type meanwhile:
 * the blocks are appended at the document's end, as mapping that position through their edits would.
 */
import type { Editor, JSONContent } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { EditorState, Transaction } from '@tiptap/pm/state';

/** About a tall screen of text: the blocks built with the editor. */
const FIRST_CHARS = 4000;
const FIRST_BLOCKS = 60;

/** Set on the transactions that append the rest (not the person's edits). */
export const FILL_META = 'binderyFill';

/** The text length of `node`, stopping once it passes `limit`. */
function textLength(node: JSONContent, limit: number): number {
  let length = node.text?.length ?? 0;
  for (const child of node.content ?? []) {
    if (length > limit) break;
    length += textLength(child, limit - length) + 1;
  }
  return length;
}

/** The document with its first screenful of blocks, and the blocks after them. */
export function firstScreen(
  doc: JSONContent,
  limits = { blocks: FIRST_BLOCKS, chars: FIRST_CHARS },
): { first: JSONContent; rest: JSONContent[] } {
  const blocks = doc.content ?? [];
  let count = 0;
  let chars = 0;
  // At least one block: a document has one.
  while (count < blocks.length && (count === 0 || (count < limits.blocks && chars < limits.chars))) {
    chars += textLength(blocks[count] as JSONContent, limits.chars);
    count += 1;
  }
  if (count >= blocks.length) return { first: doc, rest: [] };
  return { first: { ...doc, content: blocks.slice(0, count) }, rest: blocks.slice(count) };
}

/** The transaction that appends `blocks` (the editor's JSON) at the end of the document. */
export function appendBlocks(state: EditorState, blocks: JSONContent[]): Transaction {
  const nodes = blocks.map((json) => state.schema.nodeFromJSON(json));
  // Not an edit either for TipTap's "clear document" plugin: after a transaction in a document whose
  // selection covers it all (a first screen without text, such as an empty list) leaving no text, it
  // replaced what was appended by an empty paragraph.
  return state.tr
    .insert(state.doc.content.size, nodes)
    .setMeta('addToHistory', false)
    .setMeta('preventUpdate', true)
    .setMeta('preventClearDocument', true)
    .setMeta(FILL_META, true);
}

interface Fill {
  rest: JSONContent[];
  next: number;
  task: ReturnType<typeof setTimeout> | undefined;
}

const fills = new WeakMap<Editor, Fill>();
/** The editors whose whole document is in, and who waits for the others' (see {@link onFilled}). */
const filled = new WeakSet<Editor>();
const waiting = new WeakMap<Editor, Set<() => void>>();

function markFilled(editor: Editor) {
  if (filled.has(editor)) return;
  filled.add(editor);
  for (const callback of waiting.get(editor) ?? []) callback();
  waiting.delete(editor);
}

/**
 * Calls `callback` once the editor's whole document is in (at once if it is): for what can wait
 * for it, without rendering the editor's component again (TipTap's useEditor would set its options
 * and the view's state again). Returns a cancel.
 */
export function onFilled(editor: Editor, callback: () => void): () => void {
  if (filled.has(editor)) {
    callback();
    return () => undefined;
  }
  const callbacks = waiting.get(editor) ?? new Set<() => void>();
  waiting.set(editor, callbacks);
  callbacks.add(callback);
  return () => callbacks.delete(callback);
}

/** Appends the blocks from `fill.next` on, all of them. */
function appendRest(editor: Editor, fill: Fill) {
  clearTimeout(fill.task);
  fill.task = undefined;
  if (fill.next >= fill.rest.length || editor.isDestroyed) return;
  const blocks = fill.rest.slice(fill.next);
  fill.next = fill.rest.length;
  editor.view.dispatch(appendBlocks(editor.state, blocks));
  markFilled(editor);
}

/**
 * Appends `rest` to the editor's document in a task after this one (once per editor: calling it
 * again, as StrictMode's second effect does, resumes what is left). Returns a cancel of that task.
 */
export function fillRest(editor: Editor, rest: JSONContent[]): () => void {
  if (!rest.length) {
    markFilled(editor);
    return () => undefined;
  }
  let fill = fills.get(editor);
  if (!fill) {
    fill = { rest, next: 0, task: undefined };
    fills.set(editor, fill);
  }
  const current = fill;
  if (current.next < current.rest.length && current.task === undefined)
    current.task = setTimeout(() => appendRest(editor, current), 0);
  return () => {
    clearTimeout(current.task);
    current.task = undefined;
  };
}

/** The editor's whole document: what was not appended yet is first (a save must not miss it). */
export function wholeDoc(editor: Editor): ProseMirrorNode {
  const fill = fills.get(editor);
  if (fill) appendRest(editor, fill);
  return editor.state.doc;
}

/** Drops what was not appended yet: the document is being replaced. */
export function dropFill(editor: Editor) {
  const fill = fills.get(editor);
  if (!fill) return;
  clearTimeout(fill.task);
  fill.task = undefined;
  fill.next = fill.rest.length;
  markFilled(editor);
}
