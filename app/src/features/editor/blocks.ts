/**
 * The blocks the "/" menu inserts, named as the Document format's block types are shown to writers.
 * Each needs a node of the editor's schema (`node`): a block the model does not have is not offered.
 * They use TipTap's commands by node name, so they hold whatever extensions the model brings.
 */
import type { Editor, Range } from '@tiptap/core';
import { editorActions } from './actions';
import { documentToEditor } from './model';
import { caretInFirstCell, atCommand as chain, emptyTable, turnIntoCodeBlock } from './writing';

export interface BlockChoice {
  title: string;
  /** More words it is found by. */
  keywords: string[];
  /** The schema node it needs. */
  node: string;
  run: (editor: Editor, range: Range) => void;
}

/** `data` when it is an object, else an empty one. */
const objectOr = (data: unknown): Record<string, unknown> =>
  data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};

export const BLOCKS: BlockChoice[] = [
  { title: 'Text', keywords: ['paragraph'], node: 'paragraph', run: (e, r) => chain(e, r).setNode('paragraph').run() },
  ...([1, 2, 3] as const).map(
    (level): BlockChoice => ({
      title: `Heading ${level}`,
      keywords: ['title', `h${level}`],
      node: 'heading',
      // TipTap's setNode copies the block's attributes: a new paragraph's data is null, and a
      // heading's data is required by the format (a heading without it was saved, then broke pages).
      run: (e, r) =>
        chain(e, r)
          .setNode('heading', { level, data: objectOr(e.state.selection.$from.parent.attrs.data) })
          .run(),
    }),
  ),
  {
    title: 'Bulleted list',
    keywords: ['unordered', 'bullet'],
    node: 'bulletList',
    run: (e, r) => chain(e, r).toggleList('bulletList', 'listItem').run(),
  },
  {
    title: 'Numbered list',
    keywords: ['ordered', 'number'],
    node: 'orderedList',
    run: (e, r) => chain(e, r).toggleList('orderedList', 'listItem').run(),
  },
  {
    title: 'Task list',
    keywords: ['todo', 'checkbox'],
    node: 'taskList',
    run: (e, r) => chain(e, r).toggleList('taskList', 'listItem').run(),
  },
  {
    title: 'Code block',
    keywords: ['code', 'snippet', 'pre'],
    node: 'codeBlock',
    run: (e, r) =>
      chain(e, r)
        .command(({ state, tr }) => turnIntoCodeBlock(state, tr, tr.selection.from))
        .run(),
  },
  {
    title: 'Hint',
    keywords: ['callout', 'info', 'warning', 'note'],
    node: 'hint',
    run: (e, r) => chain(e, r).wrapIn('hint').run(),
  },
  {
    title: 'Table',
    keywords: ['grid', 'rows', 'columns'],
    node: 'table',
    // A 2 × 2 table of text columns under a header row, the caret in its first cell.
    run: (e, r) =>
      chain(e, r)
        .insertContent(emptyTable(documentToEditor))
        .command(({ tr }) => caretInFirstCell(tr, r.from))
        .run(),
  },
  {
    title: 'Image',
    keywords: ['picture', 'photo', 'upload', 'file'],
    node: 'images',
    // The file picker's image is uploaded and inserted where the "/" was (see PageEditor).
    run: (e, r) => {
      chain(e, r).run();
      editorActions(e)?.pickImage();
    },
  },
  {
    title: 'Quote',
    keywords: ['blockquote'],
    node: 'blockquote',
    run: (e, r) => chain(e, r).wrapIn('blockquote').run(),
  },
  {
    title: 'Divider',
    keywords: ['rule', 'separator', 'hr'],
    node: 'divider',
    run: (e, r) => chain(e, r).insertContent({ type: 'divider' }).run(),
  },
];

/** The choices whose node the schema has. */
function available(nodes: Record<string, unknown>): BlockChoice[] {
  return BLOCKS.filter((block) => nodes[block.node]);
}

/** The choices for what was typed after "/": by title first, then by keyword; all when nothing was. */
export function matchBlocks(nodes: Record<string, unknown>, query: string): BlockChoice[] {
  const q = query.trim().toLowerCase();
  const blocks = available(nodes);
  if (!q) return blocks;
  const byTitle = blocks.filter((b) => b.title.toLowerCase().includes(q));
  const byKeyword = blocks.filter((b) => !byTitle.includes(b) && b.keywords.some((k) => k.includes(q)));
  return [...byTitle, ...byKeyword];
}
