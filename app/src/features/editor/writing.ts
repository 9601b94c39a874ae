/**
 * What writing needs beyond the Document model's nodes (src/document-model, which defines what a
 * document may hold and nothing of how it is typed): undo and redo across saves, the drop and gap
 * cursors, list keys (Enter, Tab, Shift-Tab, Backspace in items), the Markdown shortcuts (`#`,
 * `-`, `1.`, `>`, three backticks, `**…**`, `*…*`, `` `…` ``, `~~…~~`), the ways out of a block that
 * ends the page (Enter twice at the end of a code block, Enter in an empty last paragraph of a hint or
 * quote, ArrowDown after the last block), and the caret read before each key. The first three are
 * TipTap's own extensions, imported one by one rather than through StarterKit: StarterKit bundles
 * every one of its nodes and marks (and linkify) even when turned off, and the model's nodes stand
 * alone.
 */
import {
  type Editor,
  Extension,
  InputRule,
  type JSONContent,
  markInputRule,
  type Range,
  textblockTypeInputRule,
  wrappingInputRule,
} from '@tiptap/core';
import { ListKeymap } from '@tiptap/extension-list';
import { Dropcursor, Gapcursor, UndoRedo } from '@tiptap/extensions';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { type EditorState, Plugin, Selection, TextSelection, type Transaction } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';

const LISTS = ['bulletList', 'orderedList', 'taskList'];

/**
 * Replaces the textblock at `from` by an empty code block (one code line, the cursor in it), with
 * `syntax` as its language when given.
 */
export function turnIntoCodeBlock(state: EditorState, tr: Transaction, from: number, syntax?: string): boolean {
  const { codeBlock, codeLine } = state.schema.nodes;
  if (!codeBlock || !codeLine) return false;
  const $from = tr.doc.resolve(from);
  if (!$from.parent.isTextblock) return false;
  const block = codeBlock.create(syntax ? { data: { syntax } } : null, codeLine.create());
  const start = $from.before();
  tr.replaceWith(start, $from.after(), block);
  tr.setSelection(TextSelection.create(tr.doc, start + 2));
  return true;
}

/** The model's node for a table made in the editor: two text columns, two rows, empty cells. */
export function emptyTable(toEditor: (document: never) => JSONContent): JSONContent {
  const columns = ['a', 'b'];
  const rows = ['r1', 'r2'];
  const paragraph = { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [] }] };
  const table = {
    object: 'block',
    type: 'table',
    isVoid: true,
    data: {
      view: { type: 'grid', columns, hideHeader: false },
      records: Object.fromEntries(
        rows.map((r, i) => [
          r,
          { orderIndex: String(i), values: Object.fromEntries(columns.map((c) => [c, `${r}-${c}`])) },
        ]),
      ),
      definition: Object.fromEntries(
        columns.map((c, i) => [c, { id: c, title: `Column ${i + 1}`, type: 'text', textAlignment: 'left' }]),
      ),
    },
    fragments: rows.flatMap((r) =>
      columns.map((c) => ({ object: 'fragment', fragment: `${r}-${c}`, nodes: [paragraph] })),
    ),
  };
  return toEditor({ object: 'document', data: {}, nodes: [table] } as never).content?.[0] ?? { type: 'paragraph' };
}

/**
 * Puts the caret in the first body cell (the first cell after the header row) of the table that
 * starts at or after `from`: where a person inserting a table types first.
 */
export function caretInFirstCell(tr: Transaction, from: number): boolean {
  let cell = -1;
  tr.doc.nodesBetween(Math.max(0, from - 1), tr.doc.content.size, (node, pos) => {
    if (cell >= 0) return false;
    if (node.type.name === 'tableCell') cell = pos;
    return node.type.name !== 'tableCell';
  });
  if (cell < 0) return false;
  tr.setSelection(TextSelection.near(tr.doc.resolve(cell + 1)));
  return true;
}

/** Deletes the typed "/" command and runs `command` there, as one step of the history. */
export function atCommand(editor: Editor, range: Range) {
  return editor.chain().focus().deleteRange(range);
}

/** Puts an empty paragraph at `at` (between blocks) in `tr`, with the caret in it, and runs it. */
function paragraphAt(editor: Editor, tr: Transaction, at: number): boolean {
  const paragraph = editor.schema.nodes.paragraph;
  if (!paragraph) return false;
  tr.insert(at, paragraph.create({ data: {} })).setSelection(TextSelection.create(tr.doc, at + 1));
  editor.view.dispatch(tr.scrollIntoView());
  return true;
}

/**
 * Enter at the end of a code block's last line when that line is empty or ends with a line break
 * (Enter twice at its end) leaves the block for a new paragraph after it, the empty line dropped:
 * Enter in a code block otherwise only breaks lines, so a code block ending the page kept the caret.
 */
function leaveCodeBlock(editor: Editor): boolean {
  const { $from, empty } = editor.state.selection;
  if (!empty || $from.parent.type.name !== 'codeLine' || $from.depth < 2) return false;
  const block = $from.node(-1);
  const line = $from.parent;
  if (block.type.name !== 'codeBlock' || $from.indexAfter(-1) !== block.childCount) return false;
  if ($from.parentOffset !== line.content.size) return false;
  const tr = editor.state.tr;
  if (line.textContent.endsWith('\n')) tr.delete($from.pos - 1, $from.pos);
  else if (line.content.size === 0 && block.childCount > 1) tr.delete($from.before(), $from.after());
  else return false;
  return paragraphAt(editor, tr, tr.mapping.map($from.after(-1)));
}

/** Enter in an empty last paragraph of a hint or a quote leaves it, as it leaves a list. */
function leaveWrapper(editor: Editor): boolean {
  const { $from, empty } = editor.state.selection;
  if (!empty || $from.parent.type.name !== 'paragraph' || $from.parent.content.size > 0 || $from.depth < 2)
    return false;
  const wrapper = $from.node(-1);
  if (!['hint', 'blockquote'].includes(wrapper.type.name) || wrapper.childCount < 2) return false;
  if ($from.indexAfter(-1) !== wrapper.childCount) return false;
  return editor.commands.lift(wrapper.type.name);
}

/**
 * ArrowDown at the very end of a page that ends with a block other than a paragraph or heading (a
 * code block, a hint, a table, images): a new empty paragraph after it, to write on, as other
 * editors do; no caret could be put after such a block otherwise.
 */
function paragraphAfterLastBlock(editor: Editor): boolean {
  const { doc, selection } = editor.state;
  const last = doc.lastChild;
  if (!last || last.isTextblock) return false;
  const end = Selection.atEnd(doc);
  if (selection.from !== end.from || selection.to !== end.to) return false;
  return paragraphAt(editor, editor.state.tr, doc.content.size);
}

const MarkdownShortcuts = Extension.create({
  name: 'markdownShortcuts',
  addInputRules() {
    const { nodes, marks } = this.editor.schema;
    const rules: InputRule[] = [];
    if (nodes.heading) {
      rules.push(
        textblockTypeInputRule({
          find: /^(#{1,3})\s$/,
          type: nodes.heading,
          getAttributes: (match) => ({ level: match[1]?.length ?? 1 }),
        }),
      );
    }
    if (nodes.bulletList) rules.push(wrappingInputRule({ find: /^\s*([-+*])\s$/, type: nodes.bulletList }));
    if (nodes.orderedList) rules.push(wrappingInputRule({ find: /^(\d+)\.\s$/, type: nodes.orderedList }));
    if (nodes.blockquote) rules.push(wrappingInputRule({ find: /^\s*>\s$/, type: nodes.blockquote }));
    rules.push(
      new InputRule({
        find: /^```([a-z0-9+#-]+)?[\s\n]$/i,
        handler: ({ state, range, match }) => {
          turnIntoCodeBlock(state as unknown as EditorState, state.tr, range.from, match[1]);
        },
      }),
    );
    const mark = (name: string, find: RegExp) => {
      const type = marks[name];
      if (type) rules.push(markInputRule({ find, type }));
    };
    mark('bold', /(?:^|\s)(\*\*(?!\s+\*\*)((?:[^*]+))\*\*(?!\s+\*\*))$/);
    mark('italic', /(?:^|\s)(\*(?!\s+\*)((?:[^*]+))\*(?!\s+\*))$/);
    mark('code', /(^|[^`])`([^`]+)`(?!`)$/);
    mark('strikethrough', /(?:^|\s)(~~(?!\s+~~)((?:[^~]+))~~(?!\s+~~))$/);
    return rules;
  },
  addKeyboardShortcuts() {
    const inList = () => {
      const { $from } = this.editor.state.selection;
      for (let depth = $from.depth; depth > 0; depth--) {
        const node: ProseMirrorNode = $from.node(depth);
        if (node.type.name === 'listItem' && LISTS.includes($from.node(depth - 1).type.name)) return true;
      }
      return false;
    };
    return {
      // Enter in an empty last paragraph of an item leaves the list (or the inner list), as writers expect.
      Enter: () => {
        if (!inList()) return leaveCodeBlock(this.editor) || leaveWrapper(this.editor);
        const { $from, empty } = this.editor.state.selection;
        const last = $from.parent.content.size === 0 && $from.indexAfter(-1) === $from.node(-1).childCount;
        if (empty && last) return this.editor.commands.liftListItem('listItem');
        return this.editor.commands.splitListItem('listItem');
      },
      ArrowDown: () => paragraphAfterLastBlock(this.editor),
      Tab: () => inList() && this.editor.commands.sinkListItem('listItem'),
      'Shift-Tab': () => inList() && this.editor.commands.liftListItem('listItem'),
    };
  },
});

/** What of ProseMirror's DOM observer is used here (not in its types: internal to the view). */
type ObservedView = EditorView & { domObserver?: { flush?: () => void } };

/**
 * Has ProseMirror read the caret before it handles a key the person pressed. It learns that the
 * browser moved the caret (End, Ctrl+End, a click) from `selectionchange`, an ordinary task, while
 * Chrome runs input first: under load Enter came before it, and ran where the caret had been (the
 * top of the page after Tab), splitting the wrong block and putting the caret back there. Its DOM
 * observer's flush reads the caret as that event does. Only trusted keys: ProseMirror sends itself
 * keys (Enter, Backspace) while it reads a DOM change, from within that flush.
 */
const CaretBeforeKeys = Extension.create({
  name: 'caretBeforeKeys',
  // Before every keymap and the input rules' Enter.
  priority: 1000,
  addProseMirrorPlugins() {
    return [
      new Plugin({
        props: {
          handleKeyDown(view, event) {
            if (event.isTrusted && !view.composing && !event.isComposing) (view as ObservedView).domObserver?.flush?.();
            return false;
          },
        },
      }),
    ];
  },
});

/** The extensions the page editor adds to the model's. */
export const writingExtensions = [
  UndoRedo,
  Dropcursor,
  Gapcursor,
  ListKeymap.configure({ listTypes: [{ itemName: 'listItem', wrapperNames: LISTS }] }),
  MarkdownShortcuts,
  CaretBeforeKeys,
];
