/**
 * The table's commands while the caret is in one: add a row below, add a column to the right,
 * delete the row or the column the caret is in (TipTap's table commands, on prosemirror-tables).
 * The header row (the columns' titles) is not deleted by "Delete row", and the last column stays.
 * From the keyboard, Tab and Shift-Tab move between cells, and Tab in the last cell adds a row.
 */
import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';

function tableState(editor: Editor) {
  const { $from } = editor.state.selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    const node = $from.node(depth);
    if (node.type.name !== 'table') continue;
    const inHeader = $from.index(depth) === 0 && node.firstChild?.firstChild?.type.name === 'tableHeader';
    return { inTable: true, inHeader, columns: node.firstChild?.childCount ?? 0 };
  }
  return { inTable: false, inHeader: false, columns: 0 };
}

export function TableTools({ editor }: { editor: Editor }) {
  const state = useEditorState({ editor, selector: ({ editor: current }) => tableState(current) });
  if (!state.inTable) return null;
  const chain = () => editor.chain().focus();
  return (
    <div role="toolbar" aria-label="Table" className="table-tools">
      <button type="button" onClick={() => chain().addRowAfter().run()}>
        Add row
      </button>
      <button type="button" disabled={state.inHeader} onClick={() => chain().deleteRow().run()}>
        Delete row
      </button>
      <button type="button" onClick={() => chain().addColumnAfter().run()}>
        Add column
      </button>
      <button type="button" disabled={state.columns < 2} onClick={() => chain().deleteColumn().run()}>
        Delete column
      </button>
    </div>
  );
}
